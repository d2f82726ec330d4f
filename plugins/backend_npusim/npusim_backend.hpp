// The "npusim" backend: the simulated Ascend NPU (NPU numerics plus a per-task timing model).
//
// Options: the CompileOptions fields (compiler/compiled_model.hpp; parse_compile_options), of
// which soc_version is required: soc_dir, precision_mode, keep_dtype_nodes, output_type,
// dynamic_batch_size, disable_reuse_memory, ...
#pragma once

#include <asc/sdk/backend.hpp>

namespace asc::npusim {

class NpusimBackend : public Backend {
 public:
  std::string name() const override { return "npusim"; }
  std::string description() const override;
  // compile_model(graph, ops, parse_compile_options(options)): EE5004 without soc_version,
  // EE5002 for an unknown option, EE5007 for a bad value or unknown SoC, plus the compiler's
  // errors (compiler/compile_model.hpp).
  std::unique_ptr<Executable> compile(const Graph& graph, const OpRegistry& ops,
                                      const BackendOptions& options) const override;
  // Reads an .om (om/om_file.hpp). When `options` give a soc_version, an .om compiled for
  // another SoC is EE5007 naming both; the SoC file is looked up through soc_dir.
  std::unique_ptr<Executable> load(const std::filesystem::path& path, const OpRegistry& ops,
                                   const BackendOptions& options) const override;
  // .om files (om/om_summary.hpp): recognised by their magic; described from the header,
  // options and profiles; their graph as compiled, for other backends to run.
  bool reads_model_file(const std::filesystem::path& path) const override;
  ModelFileInfo describe_model_file(const std::filesystem::path& path) const override;
  Graph read_model_graph(const std::filesystem::path& path, const OpRegistry& ops) const override;
  // A stream with a simulated device clock (npusim_stream.hpp; defined in npusim_stream.cpp).
  std::unique_ptr<Stream> create_stream() const override;
};

}  // namespace asc::npusim
