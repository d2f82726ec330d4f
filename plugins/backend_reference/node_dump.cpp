#include "node_dump.hpp"

#include <asc/sdk/io.hpp>
#include <string>

#include "output_paths.hpp"

namespace asc::reference {

NodeDump::NodeDump(std::filesystem::path dir) : dir_(std::move(dir)) {
  ensure_directory(dir_, "dump directory");
}

void NodeDump::record(const Node& node, const std::vector<Tensor>& outputs) {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined()) continue;
    const std::string file = file_stem_for(node.name) + "." + std::to_string(i) + ".npy";
    write_npy(dir_ / file, outputs[i]);
    files.push_back({{"index", i},
                     {"value", node.outputs[i]},
                     {"file", file},
                     {"dtype", std::string(dtype_name(outputs[i].dtype()))},
                     {"shape", outputs[i].shape()}});
  }
  nodes_[node.name] = {
      {"op_type", node.op_type}, {"provenance", node.provenance}, {"outputs", std::move(files)}};
}

void NodeDump::write_manifest() const {
  const nlohmann::ordered_json manifest = {{"nodes", nodes_}};
  write_text_atomically(dir_ / "manifest.json", manifest.dump(2) + "\n");
}

}  // namespace asc::reference
