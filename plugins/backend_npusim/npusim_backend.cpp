#include "npusim_backend.hpp"

#include <asc/sdk/error.hpp>

#include "compiler/compile_model.hpp"
#include "compiler/precision_pass.hpp"
#include "npusim_executable.hpp"
#include "om/om_file.hpp"
#include "om/om_summary.hpp"

namespace asc::npusim {

std::string NpusimBackend::description() const {
  return "simulated Ascend NPU: compiles for a SoC as ATC does (precision, formats, tiling, memory plan, dynamic "
         "profiles), runs with the NPU's fp16 numerics and times every task with a SoC timing model (configs/soc)";
}

std::unique_ptr<Executable> NpusimBackend::compile(const Graph& graph, const OpRegistry& ops,
                                                   const BackendOptions& options) const {
  const CompileOptions compile_options = parse_compile_options(options);
  if (compile_options.soc_version.empty())
    throw Error(ErrorCode::ConfigMissingKey, "backend 'npusim' needs option 'soc_version' (e.g. Ascend310P3)");
  CompiledModel model = compile_model(graph, ops, compile_options);
  SocConfig soc = load_soc(model.soc_version, soc_directory(compile_options.soc_dir));
  return std::make_unique<NpusimExecutable>(std::move(model), ops, std::move(soc));
}

std::unique_ptr<Executable> NpusimBackend::load(const std::filesystem::path& path, const OpRegistry& ops,
                                                const BackendOptions& options) const {
  const CompileOptions load_options = parse_compile_options(options);
  CompiledModel model = read_om(path);
  if (!load_options.soc_version.empty() && load_options.soc_version != model.soc_version)
    throw Error(ErrorCode::ConfigBadValue, path.string() + " was compiled for soc_version " + model.soc_version +
                                               ", and this run asks for " + load_options.soc_version +
                                               "; recompile the model with atc --soc_version=" +
                                               load_options.soc_version);
  SocConfig soc = load_soc(model.soc_version, soc_directory(load_options.soc_dir));
  return std::make_unique<NpusimExecutable>(std::move(model), ops, std::move(soc));
}

bool NpusimBackend::reads_model_file(const std::filesystem::path& path) const { return is_om_file(path); }

ModelFileInfo NpusimBackend::describe_model_file(const std::filesystem::path& path) const { return describe_om(path); }

Graph NpusimBackend::read_model_graph(const std::filesystem::path& path, const OpRegistry& /*ops*/) const {
  return host_graph(read_om(path).graph);
}

}  // namespace asc::npusim
