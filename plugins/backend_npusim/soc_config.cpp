#include "soc_config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <system_error>

namespace asc::npusim {
namespace {

class SocReader {
 public:
  explicit SocReader(std::filesystem::path file) : file_(std::move(file)) {
    try {
      root_ = YAML::LoadFile(file_.string());
    } catch (const YAML::BadFile&) {
      throw Error(ErrorCode::FileNotFound, "SoC file " + file_.string() + " cannot be read");
    } catch (const YAML::ParserException& e) {
      throw Error(ErrorCode::ConfigSyntax, where(e.mark) + ": " + e.msg);
    }
    if (!root_.IsMap()) throw Error(ErrorCode::ConfigWrongType, where(root_.Mark()) + ": expected a mapping");
  }

  const YAML::Node& root() const { return root_; }

  YAML::Node child(const YAML::Node& parent, const std::string& key, const std::string& path) const {
    if (!parent.IsMap())
      throw Error(ErrorCode::ConfigWrongType, where(parent.Mark()) + ": '" + path + "' must be a mapping");
    const YAML::Node node = parent[key];
    if (!node.IsDefined() || node.IsNull())
      throw Error(ErrorCode::ConfigMissingKey,
                  where(parent.Mark()) + ": missing field '" + path + (path.empty() ? "" : ".") + key + "'");
    return node;
  }

  double number(const YAML::Node& parent, const std::string& key, const std::string& path = "") const {
    const YAML::Node node = child(parent, key, path);
    double value = 0;
    if (!node.IsScalar() || !YAML::convert<double>::decode(node, value))
      throw Error(ErrorCode::ConfigWrongType, where(node.Mark()) + ": field '" + full(path, key) + "' must be a number");
    if (!(value > 0))
      throw Error(ErrorCode::ConfigBadValue, where(node.Mark()) + ": field '" + full(path, key) + "' must be > 0");
    return value;
  }

  int integer(const YAML::Node& parent, const std::string& key, const std::string& path = "") const {
    const double value = number(parent, key, path);
    if (value != static_cast<double>(static_cast<int>(value)))
      throw Error(ErrorCode::ConfigWrongType,
                  where(parent[key].Mark()) + ": field '" + full(path, key) + "' must be an integer");
    return static_cast<int>(value);
  }

  std::string text(const YAML::Node& parent, const std::string& key, const std::string& path = "") const {
    const YAML::Node node = child(parent, key, path);
    if (!node.IsScalar())
      throw Error(ErrorCode::ConfigWrongType, where(node.Mark()) + ": field '" + full(path, key) + "' must be text");
    return node.Scalar();
  }

  CubeShape cube(const YAML::Node& parent, const std::string& key) const {
    const YAML::Node node = child(parent, key, "cube");
    if (!node.IsSequence() || node.size() != 3)
      throw Error(ErrorCode::ConfigWrongType, where(node.Mark()) + ": field 'cube." + key + "' must be [m, k, n]");
    std::array<int, 3> mkn{};
    for (std::size_t i = 0; i < 3; ++i) {
      int value = 0;
      if (!YAML::convert<int>::decode(node[i], value) || value <= 0)
        throw Error(ErrorCode::ConfigBadValue,
                    where(node[i].Mark()) + ": field 'cube." + key + "' needs positive integers");
      mkn[i] = value;
    }
    return CubeShape{mkn[0], mkn[1], mkn[2]};
  }

  std::string where(const YAML::Mark& mark) const {
    return file_.string() + ":" + std::to_string(mark.line + 1);
  }

 private:
  static std::string full(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  std::filesystem::path file_;
  YAML::Node root_;
};

constexpr std::int64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

}  // namespace

DeviceInfo device_info(const SocConfig& soc) {
  DeviceInfo device;
  device.soc_version = soc.name;
  device.ai_core_count = soc.ai_cores;
  device.vector_core_count = soc.vector_cores;
  device.split_vector_cores = soc.split;
  device.clock_mhz = soc.clock_mhz;
  device.memory_bytes = soc.device_memory_bytes;
  device.host_link_gbs = soc.pcie_bandwidth_gbs;
  device.timing_accuracy = soc.timing_accuracy;
  return device;
}

SocConfig parse_soc_file(const std::filesystem::path& file) {
  const SocReader reader(file);
  const YAML::Node& root = reader.root();
  SocConfig soc;
  soc.name = reader.text(root, "name");
  const std::string architecture = reader.text(root, "architecture");
  if (architecture != "coupled" && architecture != "split")
    throw Error(ErrorCode::ConfigBadValue, reader.where(root["architecture"].Mark()) +
                                               ": field 'architecture' must be 'coupled' or 'split', got '" +
                                               architecture + "'");
  soc.split = architecture == "split";
  soc.ai_cores = reader.integer(root, "ai_cores");
  soc.vector_cores = reader.integer(root, "vector_cores");
  soc.clock_mhz = reader.number(root, "clock_mhz");

  const YAML::Node cube = reader.child(root, "cube", "");
  soc.cube_fp16 = reader.cube(cube, "fp16");
  soc.cube_int8 = reader.cube(cube, "int8");
  if (cube["fp32"].IsDefined()) soc.cube_fp32 = reader.cube(cube, "fp32");
  soc.vector_bytes_per_cycle = reader.number(root, "vector_bytes_per_cycle");

  const YAML::Node buffers = reader.child(root, "buffers_kib", "");
  soc.l0a_bytes = static_cast<std::int64_t>(reader.number(buffers, "l0a", "buffers_kib") * kKiB);
  soc.l0b_bytes = static_cast<std::int64_t>(reader.number(buffers, "l0b", "buffers_kib") * kKiB);
  soc.l0c_bytes = static_cast<std::int64_t>(reader.number(buffers, "l0c", "buffers_kib") * kKiB);
  soc.l1_bytes = static_cast<std::int64_t>(reader.number(buffers, "l1", "buffers_kib") * kKiB);
  soc.ub_bytes = static_cast<std::int64_t>(reader.number(buffers, "ub", "buffers_kib") * kKiB);

  const YAML::Node l2 = reader.child(root, "l2", "");
  soc.l2_bytes = static_cast<std::int64_t>(reader.number(l2, "size_mib", "l2") * kMiB);
  soc.l2_bandwidth_gbs = reader.number(l2, "bandwidth_gbs", "l2");

  const YAML::Node memory = reader.child(root, "device_memory", "");
  soc.device_memory_kind = reader.text(memory, "kind", "device_memory");
  soc.device_memory_bytes = static_cast<std::int64_t>(reader.number(memory, "size_gib", "device_memory") * kGiB);
  soc.device_memory_bandwidth_gbs = reader.number(memory, "bandwidth_gbs", "device_memory");

  const std::string p = "paths_bytes_per_cycle";
  const YAML::Node paths = reader.child(root, p, "");
  soc.paths = {reader.number(paths, "gm_to_l1", p),  reader.number(paths, "l2_to_l1", p),
               reader.number(paths, "l1_to_l0a", p), reader.number(paths, "l1_to_l0b", p),
               reader.number(paths, "l0c_to_gm", p), reader.number(paths, "gm_to_ub", p),
               reader.number(paths, "l2_to_ub", p),  reader.number(paths, "ub_to_gm", p),
               reader.number(paths, "ub_to_l2", p),  reader.number(paths, "l0c_to_l2", p)};

  const std::string f = "fixed_costs";
  const YAML::Node fixed = reader.child(root, f, "");
  soc.fixed = {reader.number(fixed, "mte1_start_cycles", f),
               reader.number(fixed, "mte2_latency_cycles", f),
               reader.number(fixed, "mte3_latency_cycles", f),
               reader.number(fixed, "fixpipe_latency_cycles", f),
               reader.number(fixed, "vector_instruction_min_cycles", f),
               reader.number(fixed, "cube_instruction_overhead_cycles", f),
               reader.number(fixed, "cube_instruction_min_cycles", f),
               reader.number(fixed, "scalar_head_cycles", f),
               reader.number(fixed, "task_start_cycles", f),
               reader.number(fixed, "kernel_launch_us", f)};
  soc.pcie_bandwidth_gbs = reader.number(root, "pcie_bandwidth_gbs");
  return soc;
}

std::vector<std::string> known_socs(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

SocConfig load_soc(const std::string& soc_version, const std::filesystem::path& dir) {
  const std::vector<std::string> names = known_socs(dir);
  if (std::find(names.begin(), names.end(), soc_version) == names.end()) {
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    throw Error(ErrorCode::ConfigBadValue, "unknown soc_version '" + soc_version + "'; known in " + dir.string() +
                                               ": " + (list.empty() ? "(none)" : list));
  }
  const std::filesystem::path file = dir / (soc_version + ".yaml");
  SocConfig soc = parse_soc_file(file);
  if (soc.name != soc_version)
    throw Error(ErrorCode::ConfigBadValue,
                file.string() + ": field 'name' is '" + soc.name + "', the file name says '" + soc_version + "'");
  if (const std::filesystem::path calibration = dir / "calibration.json"; std::filesystem::exists(calibration))
    soc.timing_accuracy = read_timing_accuracy(calibration, soc.name);
  return soc;
}

std::string read_timing_accuracy(const std::filesystem::path& file, const std::string& soc_version) {
  const std::vector<std::byte> bytes = read_file(file);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(reinterpret_cast<const char*>(bytes.data()),
                                     reinterpret_cast<const char*>(bytes.data()) + bytes.size());
  } catch (const nlohmann::json::exception& error) {
    throw Error(ErrorCode::ConfigSyntax, file.string() + ": " + error.what());
  }
  const auto set = [&](const char* name) -> std::string {
    const auto entry = document.find(name);
    if (entry == document.end()) return "";
    const auto mae = entry->find("mae_percent"), points = entry->find("points");
    if (!entry->is_object() || mae == entry->end() || !mae->is_number() || points == entry->end() ||
        !points->is_number_integer())
      throw Error(ErrorCode::ConfigWrongType, file.string() + ": '" + name +
                                                  "' must be an object with a number 'mae_percent' and an integer 'points'");
    char text[96];
    std::snprintf(text, sizeof text, "%.1f %% over %lld", mae->get<double>(), points->get<long long>());
    return text;
  };
  if (!document.is_object()) throw Error(ErrorCode::ConfigWrongType, file.string() + ": expected a JSON object");
  const std::string tuned = set("tuned"), holdout = set("holdout");
  if (tuned.empty()) return "";
  // The error band holds for the SoCs the points were measured on; another SoC's timing shares the
  // model but none of its own parameters (clock, memory, fixed costs) was checked against a card.
  const auto socs = document.find("socs");
  if (socs == document.end())
    throw Error(ErrorCode::ConfigMissingKey, file.string() + ": missing 'socs' (the SoCs of the calibration points)");
  std::string calibrated;
  bool covered = false;
  for (const nlohmann::json& name : socs->is_array() ? *socs : nlohmann::json::array({nullptr})) {
    if (!name.is_string())
      throw Error(ErrorCode::ConfigWrongType, file.string() + ": 'socs' must be a list of SoC names");
    covered = covered || name.get<std::string>() == soc_version;
    calibrated += (calibrated.empty() ? "" : ", ") + name.get<std::string>();
  }
  if (!covered)
    return "not calibrated: no published figures for " + soc_version + " (calibrated: " +
           (calibrated.empty() ? std::string("none") : calibrated) + ")";
  return "calibration MAE " + tuned + " published points" + (holdout.empty() ? "" : " (hold-out " + holdout + ")");
}

std::filesystem::path soc_directory(const std::string& soc_dir_option) {
  if (!soc_dir_option.empty()) return soc_dir_option;
  if (const char* env = std::getenv("ASC_SOC_DIR"); env != nullptr && *env != '\0') return env;
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path installed = exe.parent_path() / ".." / "share" / "ascend-tools" / "soc";
    if (std::filesystem::is_directory(installed, error)) return installed;
  }
  return ASC_NPUSIM_SOURCE_SOC_DIR;
}

}  // namespace asc::npusim
