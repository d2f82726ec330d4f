// Backend support (since SDK 0.3): dumps every node's outputs of a run (RunOptions::dump_dir).
// Two namings:
//   DumpNaming::NodeNpy (the reference backend):
//     <dir>/<node name>.<output index>.npy
//   DumpNaming::Seed (the NPU simulator, as the seed and msit name NPU dumps):
//     <dir>/<node name>.<output index>.<timestamp>.bin   raw little-endian, C order, in the
//                                                         tensor's dtype as the run holds it
//     <dir>/<node name>.<output index>.<timestamp>.npy   the same tensor as .npy
//     (timestamp: microseconds since the epoch when the task finished)
// Both write <dir>/manifest.json:
//   {"naming": "node_npy" | "seed",
//    "nodes": {"<node name>": {"op_type": ..., "provenance": [original model nodes],
//              "outputs": [{"index", "value", "file" (the .npy), "dtype", "shape"
//                           [, "precision"] [, "bin", "timestamp" (seed naming)]}]}}}
// "precision" is the lowest precision the values carry when it differs from dtype (the NPU
// simulator's fp16 results held in float32 tensors: "float16"); the validator's whole-network
// criteria set their tolerance from it.
// Node names are sanitised with file_stem_for() (output_paths.hpp); the manifest keeps the real names, in run
// order. Readers find tensors through "file", whatever the naming.
#pragma once

#include "asc/sdk/graph.hpp"
#include "asc/sdk/tensor.hpp"
#include <filesystem>
#include <memory>
#include <vector>

namespace asc {

enum class DumpNaming { NodeNpy, Seed };

class NodeDump {
 public:
  // Creates `dir` if needed; throws EE4003 naming it when that fails.
  explicit NodeDump(std::filesystem::path dir, DumpNaming naming = DumpNaming::NodeNpy);
  ~NodeDump();
  NodeDump(NodeDump&&) noexcept;
  NodeDump& operator=(NodeDump&&) noexcept;
  // Writes the node's defined outputs (atomically, like every file the project writes).
  // `precisions` (per output, optional) records where the values carry less than their dtype.
  void record(const Node& node, const std::vector<Tensor>& outputs, const std::vector<DType>& precisions = {});
  // Writes manifest.json for the nodes recorded so far. When it cannot (disk full), the files this
  // dump wrote are removed before the EE4003 propagates: a dump without its manifest cannot be
  // read (op_validate matches tensors through it) and would only fill the disk further.
  void write_manifest() const;
  // The same while a run is failing: the manifest of the nodes that did run is what one needs to
  // debug the one that failed, and the run's own error stays the one reported (a failure to
  // write is logged as a warning, and the dump's files are removed).
  void write_manifest_after_failure() const noexcept;

 private:
  std::filesystem::path dir_;
  DumpNaming naming_;
  struct Manifest;  // the recorded nodes, as manifest.json will list them
  std::unique_ptr<Manifest> manifest_;
  std::vector<std::filesystem::path> written_;  // every file record() wrote, for the removal
};

}  // namespace asc
