#include "asc/sdk/backend/node_dump.hpp"

#include "asc/sdk/error.hpp"
#include "asc/sdk/io.hpp"
#include "asc/sdk/log.hpp"
#include <chrono>
#include <nlohmann/json.hpp>
#include <cstdint>
#include <exception>
#include <span>
#include <string>

#include "asc/sdk/backend/output_paths.hpp"

namespace asc {
namespace {

std::int64_t microseconds_since_epoch() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

// The tensor's elements as stored in memory: little-endian on every host the project builds for.
void write_raw(const std::filesystem::path& file, const Tensor& tensor) {
  const Tensor dense = tensor.contiguous();
  write_file_atomically(file, std::span<const std::byte>(dense.view().raw(), dense.nbytes()));
}

}  // namespace

struct NodeDump::Manifest {
  nlohmann::ordered_json nodes = nlohmann::ordered_json::object();
};

NodeDump::NodeDump(std::filesystem::path dir, DumpNaming naming)
    : dir_(std::move(dir)), naming_(naming), manifest_(std::make_unique<Manifest>()) {
  ensure_directory(dir_, "dump directory");
}

NodeDump::~NodeDump() = default;
NodeDump::NodeDump(NodeDump&&) noexcept = default;
NodeDump& NodeDump::operator=(NodeDump&&) noexcept = default;

void NodeDump::record(const Node& node, const std::vector<Tensor>& outputs, const std::vector<DType>& precisions) {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  const std::int64_t timestamp = naming_ == DumpNaming::Seed ? microseconds_since_epoch() : 0;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined()) continue;
    std::string stem = file_stem_for(node.name) + "." + std::to_string(i);
    if (naming_ == DumpNaming::Seed) stem += "." + std::to_string(timestamp);
    const std::string file = stem + ".npy";
    write_npy(dir_ / file, outputs[i]);
    written_.push_back(dir_ / file);
    nlohmann::ordered_json entry = {{"index", i},
                                    {"value", node.outputs[i]},
                                    {"file", file},
                                    {"dtype", std::string(dtype_name(outputs[i].dtype()))},
                                    {"shape", outputs[i].shape()}};
    if (i < precisions.size() && precisions[i] != DType::Undefined && precisions[i] != outputs[i].dtype())
      entry["precision"] = std::string(dtype_name(precisions[i]));
    if (naming_ == DumpNaming::Seed) {
      write_raw(dir_ / (stem + ".bin"), outputs[i]);
      written_.push_back(dir_ / (stem + ".bin"));
      entry["bin"] = stem + ".bin";
      entry["timestamp"] = timestamp;
    }
    files.push_back(std::move(entry));
  }
  manifest_->nodes[node.name] = {
      {"op_type", node.op_type}, {"provenance", node.provenance}, {"outputs", std::move(files)}};
}

void NodeDump::write_manifest() const {
  const nlohmann::ordered_json manifest = {{"naming", naming_ == DumpNaming::Seed ? "seed" : "node_npy"},
                                           {"nodes", manifest_->nodes}};
  try {
    write_text_atomically(dir_ / "manifest.json", manifest.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
  } catch (const Error&) {
    for (const std::filesystem::path& file : written_) {
      std::error_code ignored;
      std::filesystem::remove(file, ignored);
    }
    log_warning("removed the " + std::to_string(written_.size()) + " file(s) of the dump in " + dir_.string() +
                ": its manifest.json could not be written");
    throw;
  }
}

void NodeDump::write_manifest_after_failure() const noexcept {
  try {
    write_manifest();
  } catch (const std::exception& e) {
    log_warning(e.what());
  }
}

}  // namespace asc
