// Dumps every node's outputs of a run (RunOptions::dump_dir):
//   <dir>/<node name>.<output index>.npy   one file per produced output
//   <dir>/manifest.json                    {"nodes": {"<node name>": {"op_type": ..., "provenance": [...],
//                                            "outputs": [{"index", "value", "file", "dtype", "shape"}]}}}
// Node names are sanitised with file_stem_for() (output_paths.hpp); the manifest keeps the real names, in run
// order.
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/tensor.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

namespace asc::reference {

class NodeDump {
 public:
  // Creates `dir` if needed; throws EE4003 naming it when that fails.
  explicit NodeDump(std::filesystem::path dir);
  // Writes the node's defined outputs (atomically, like every .npy the project writes).
  void record(const Node& node, const std::vector<Tensor>& outputs);
  // Writes manifest.json for the nodes recorded so far.
  void write_manifest() const;

 private:
  std::filesystem::path dir_;
  nlohmann::ordered_json nodes_ = nlohmann::ordered_json::object();
};

}  // namespace asc::reference
