#include "soc_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <cstdlib>
#include <system_error>
#include <vector>

namespace roofline {
namespace {

using asc::Error;
using asc::ErrorCode;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Reads fields of one SoC file, naming file:line and the field's dotted path in every error.
class Reader {
 public:
  explicit Reader(std::filesystem::path file) : file_(std::move(file)) {
    try {
      root_ = YAML::LoadFile(file_.string());
    } catch (const YAML::BadFile&) {
      throw Error(ErrorCode::FileReadFailed, "SoC file " + file_.string() + " cannot be read");
    } catch (const YAML::ParserException& e) {
      throw Error(ErrorCode::ConfigSyntax, at(e.mark) + ": " + e.msg);
    }
    if (!root_.IsMap()) throw Error(ErrorCode::ConfigWrongType, at(root_.Mark()) + ": expected a mapping");
  }

  // `path` is dotted: "device_memory.bandwidth_gbs".
  YAML::Node field(const std::string& path) const {
    YAML::Node node = root_;
    std::size_t begin = 0;
    while (true) {
      const std::size_t dot = path.find('.', begin);
      const std::string key = path.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
      if (!node.IsMap()) throw Error(ErrorCode::ConfigWrongType, at(node.Mark()) + ": '" + path + "': not a mapping");
      const YAML::Node parent = node;
      node.reset(parent[key]);
      if (!node.IsDefined() || node.IsNull())
        throw Error(ErrorCode::ConfigMissingKey, at(parent.Mark()) + ": missing field '" + path + "'");
      if (dot == std::string::npos) return node;
      begin = dot + 1;
    }
  }

  double positive(const std::string& path) const {
    const YAML::Node node = field(path);
    double value = 0;
    if (!node.IsScalar() || !YAML::convert<double>::decode(node, value))
      throw Error(ErrorCode::ConfigWrongType, at(node.Mark()) + ": field '" + path + "' must be a number");
    if (!(value > 0)) throw Error(ErrorCode::ConfigBadValue, at(node.Mark()) + ": field '" + path + "' must be > 0");
    return value;
  }

  int count(const std::string& path) const {
    const double value = positive(path);
    if (value != static_cast<double>(static_cast<int>(value)))
      throw Error(ErrorCode::ConfigWrongType, at(field(path).Mark()) + ": field '" + path + "' must be an integer");
    return static_cast<int>(value);
  }

  std::string text(const std::string& path) const {
    const YAML::Node node = field(path);
    if (!node.IsScalar()) throw Error(ErrorCode::ConfigWrongType, at(node.Mark()) + ": field '" + path + "' must be text");
    return node.Scalar();
  }

  CubeShape cube(const std::string& path) const {
    const YAML::Node node = field(path);
    if (!node.IsSequence() || node.size() != 3)
      throw Error(ErrorCode::ConfigWrongType, at(node.Mark()) + ": field '" + path + "' must be [m, k, n]");
    int mkn[3] = {0, 0, 0};
    for (std::size_t i = 0; i < 3; ++i)
      if (!YAML::convert<int>::decode(node[i], mkn[i]) || mkn[i] <= 0)
        throw Error(ErrorCode::ConfigBadValue, at(node[i].Mark()) + ": field '" + path + "' needs positive integers");
    return {mkn[0], mkn[1], mkn[2]};
  }

  // An optional field: absent or null is false.
  bool has(const std::string& parent, const std::string& key) const {
    const YAML::Node node = field(parent)[key];
    return node.IsDefined() && !node.IsNull();
  }

  std::string at(const YAML::Mark& mark) const { return file_.string() + ":" + std::to_string(mark.line + 1); }

 private:
  std::filesystem::path file_;
  YAML::Node root_;
};

std::vector<std::string> soc_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::filesystem::path soc_directory(const std::string& soc_dir_option) {
  if (!soc_dir_option.empty()) return soc_dir_option;
  if (const char* env = std::getenv("ASC_SOC_DIR"); env != nullptr && *env != '\0') return env;
  return ASC_SOC_INSTALL_DIR;  // from the installed SDK's package (CMakeLists.txt)
}

SocFacts load_soc(const std::string& soc_version, const std::filesystem::path& dir) {
  const std::vector<std::string> names = soc_names(dir);
  if (std::find(names.begin(), names.end(), soc_version) == names.end()) {
    std::string known;
    for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
    throw Error(ErrorCode::ConfigBadValue, "backend 'roofline': unknown soc_version '" + soc_version + "'; known in " +
                                               dir.string() + ": " + (known.empty() ? "(none)" : known));
  }
  const Reader file(dir / (soc_version + ".yaml"));
  SocFacts soc;
  soc.name = file.text("name");
  if (soc.name != soc_version)
    throw Error(ErrorCode::ConfigBadValue, file.at(file.field("name").Mark()) + ": field 'name' is '" + soc.name +
                                               "', the file name says '" + soc_version + "'");
  const std::string architecture = file.text("architecture");
  if (architecture != "coupled" && architecture != "split")
    throw Error(ErrorCode::ConfigBadValue, file.at(file.field("architecture").Mark()) +
                                               ": field 'architecture' must be 'coupled' or 'split', got '" +
                                               architecture + "'");
  soc.split = architecture == "split";
  soc.ai_cores = file.count("ai_cores");
  soc.vector_cores = file.count("vector_cores");
  soc.clock_mhz = file.positive("clock_mhz");
  soc.cube_fp16 = file.cube("cube.fp16");
  soc.cube_int8 = file.cube("cube.int8");
  if (file.has("cube", "fp32")) soc.cube_fp32 = file.cube("cube.fp32");
  soc.vector_bytes_per_cycle = file.positive("vector_bytes_per_cycle");
  soc.device_memory_bytes = static_cast<std::int64_t>(file.positive("device_memory.size_gib") * kGiB);
  soc.device_memory_bandwidth_gbs = file.positive("device_memory.bandwidth_gbs");
  soc.kernel_launch_us = file.positive("fixed_costs.kernel_launch_us");
  soc.pcie_bandwidth_gbs = file.positive("pcie_bandwidth_gbs");
  return soc;
}

asc::DeviceInfo device_info(const SocFacts& soc) {
  asc::DeviceInfo device;
  device.soc_version = soc.name;
  device.ai_core_count = soc.ai_cores;
  device.vector_core_count = soc.vector_cores;
  device.split_vector_cores = soc.split;
  device.clock_mhz = soc.clock_mhz;
  device.memory_bytes = soc.device_memory_bytes;
  device.host_link_gbs = soc.pcie_bandwidth_gbs;
  return device;
}

}  // namespace roofline
