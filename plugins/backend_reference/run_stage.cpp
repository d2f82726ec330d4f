#include "run_stage.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>
#include <asc/sdk/parallel.hpp>
#include <asc/sdk/parser.hpp>
#include <asc/sdk/registry.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include <asc/sdk/backend/output_paths.hpp>
#include <asc/sdk/backend/random_inputs.hpp>
#include "reference_backend.hpp"

namespace asc::reference {
namespace {

constexpr const char* kStage = "reference.run";

TensorMap inputs_from_files(const std::vector<std::string>& files, const std::vector<ValueInfo>& infos) {
  if (files.size() != infos.size()) {
    std::string names;
    for (const ValueInfo& info : infos) names += (names.empty() ? "" : ", ") + info.name;
    throw Error(ErrorCode::ConfigBadValue, std::string(kStage) + ": 'inputs' lists " +
                                               std::to_string(files.size()) + " file(s), the graph has " +
                                               std::to_string(infos.size()) + " input(s) (" + names +
                                               "), in this order");
  }
  TensorMap inputs;
  for (std::size_t i = 0; i < files.size(); ++i) inputs[infos[i].name] = read_npy(files[i]);
  return inputs;
}

void run(PipelineContext& ctx, const StageParams& params) {
  const Graph& graph = ctx.require_graph(kStage);
  const std::unique_ptr<Executable> executable = ReferenceBackend().compile(graph, ctx.registry.ops(), {});
  const std::vector<ValueInfo> input_infos = executable->input_infos();

  // Optional parameters whose default is empty are absent unless the pipeline gives them.
  const std::vector<std::string> files =
      params.has("inputs") ? params.get_list("inputs") : std::vector<std::string>{};
  const std::string input_shape = params.has("input_shape") ? params.get_string("input_shape") : "";
  const TensorMap inputs = files.empty() ? random_inputs(input_infos, parse_input_shape_spec(input_shape),
                                                         static_cast<std::uint32_t>(params.get_int("seed")))
                                         : inputs_from_files(files, input_infos);

  RunOptions options;
  options.threads = threads_or_default(params.get_int("threads"), std::string(kStage) + ": 'threads'");
  if (params.has("dump_dir")) options.dump_dir = params.get_path("dump_dir");  // empty: no dump
  const TensorMap outputs = executable->execute(inputs, options);

  const std::filesystem::path output_dir = params.get_path("output_dir");
  ensure_directory(output_dir, "output directory");
  for (const auto& [name, tensor] : inputs) ctx.tensors["input:" + name] = tensor;
  for (const std::string& name : graph.outputs) {
    const Tensor& tensor = outputs.at(name);
    const std::filesystem::path file = output_dir / (file_stem_for(name) + ".npy");
    write_npy(file, tensor);
    ctx.tensors["output:" + name] = tensor;
    log_info(std::string(kStage) + ": wrote " + file.string() + " " +
             std::string(dtype_name(tensor.dtype())) + shape_to_string(tensor.shape()));
  }
  ctx.artifacts["reference_outputs"] = output_dir;
  if (!options.dump_dir.empty()) ctx.artifacts["reference_dump"] = options.dump_dir;
}

}  // namespace

StageDefinition reference_run_stage() {
  StageDefinition stage;
  stage.name = kStage;
  stage.description =
      "run the graph on the reference backend and write each graph output to output_dir/<name>.npy";
  stage.params = {
      {"inputs", ParamType::StringList, false, "",
       ".npy files in graph-input order; empty: seeded random inputs (floats in [-1,1), ints in [0,10))"},
      {"seed", ParamType::Int, false, "0", "seed of the random inputs"},
      {"input_shape", ParamType::String, false, "",
       "shapes for random inputs with symbolic dims, \"name:1,3,224,224;name2:...\" (others: symbolic dims = "
       "1)"},
      {"output_dir", ParamType::Path, true, "",
       "directory for <output name>.npy ('/' and ':' in names become '_')"},
      {"dump_dir", ParamType::Path, false, "", "also write every node's outputs and a manifest.json here"},
      {"threads", ParamType::Int, false, "0",
       "threads each kernel may use (0: $ASC_NUM_THREADS, else every core)"},
  };
  stage.run = run;
  return stage;
}

}  // namespace asc::reference
