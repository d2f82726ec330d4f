#include "op_info.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <set>

namespace asc::npusim {
namespace {

class OpInfoReader {
 public:
  explicit OpInfoReader(std::filesystem::path file) : file_(std::move(file)) {
    if (!std::filesystem::is_regular_file(file_))
      throw Error(ErrorCode::FileNotFound, "op-info file " + file_.string() + " does not exist");
    try {
      root_ = YAML::LoadFile(file_.string());
    } catch (const YAML::BadFile&) {
      throw Error(ErrorCode::FileNotFound, "op-info file " + file_.string() + " cannot be read");
    } catch (const YAML::ParserException& e) {
      throw Error(ErrorCode::ConfigSyntax, where(e.mark) + ": " + e.msg);
    }
    if (!root_.IsMap()) throw Error(ErrorCode::ConfigWrongType, where(root_.Mark()) + ": expected a mapping");
    for (const auto& entry : root_) {
      const std::string key = entry.first.Scalar();
      if (key != "base" && key != "default" && key != "ops")
        throw Error(ErrorCode::ConfigUnknownKey,
                    where(entry.first.Mark()) + ": unknown field '" + key + "' (fields: base, default, ops)");
    }
  }

  std::string base() const {
    const YAML::Node node = root_["base"];
    if (!node.IsDefined()) return "";
    if (!node.IsScalar()) throw Error(ErrorCode::ConfigWrongType, where(node.Mark()) + ": 'base' must be a file name");
    return node.Scalar();
  }

  bool has_default() const { return root_["default"].IsDefined(); }
  OpInfo default_entry() const { return entry("default", root_["default"]); }

  std::map<std::string, OpInfo> ops() const {
    std::map<std::string, OpInfo> table;
    const YAML::Node ops = root_["ops"];
    if (!ops.IsDefined()) return table;
    if (!ops.IsMap()) throw Error(ErrorCode::ConfigWrongType, where(ops.Mark()) + ": 'ops' must map op types to entries");
    for (const auto& item : ops) table[item.first.Scalar()] = entry(item.first.Scalar(), item.second);
    return table;
  }

 private:
  OpInfo entry(const std::string& op_type, const YAML::Node& node) const {
    if (!node.IsMap())
      throw Error(ErrorCode::ConfigWrongType, where(node.Mark()) + ": entry '" + op_type + "' must be a mapping");
    static const std::set<std::string> fields = {"engine",  "dtypes",        "ai_cpu_dtypes",      "fp32_output_from_fp16",
                                                 "precision_reduce", "formats", "fixed_dtype_inputs", "impl_modes"};
    OpInfo info;
    info.op_type = op_type;
    info.source = where(node.Mark());
    for (const auto& item : node) {
      const std::string key = item.first.Scalar();
      const YAML::Node& value = item.second;
      const std::string field = op_type + "." + key;
      if (fields.count(key) == 0)
        throw Error(ErrorCode::ConfigUnknownKey, where(item.first.Mark()) + ": unknown field '" + field + "'");
      if (key == "engine") {
        const std::string engine = scalar(value, field);
        if (engine == "AI_CORE") info.engine = Engine::AiCore;
        else if (engine == "AI_CPU") info.engine = Engine::AiCpu;
        else bad(value, field, engine, "AI_CORE or AI_CPU");
      } else if (key == "dtypes") {
        info.dtypes = dtypes(value, field);
      } else if (key == "ai_cpu_dtypes") {
        info.ai_cpu_dtypes = dtypes(value, field);
      } else if (key == "fp32_output_from_fp16") {
        info.fp32_output_from_fp16 = boolean(value, field);
      } else if (key == "precision_reduce") {
        info.precision_reduce = boolean(value, field) ? PrecisionReduce::White : PrecisionReduce::Black;
      } else if (key == "formats") {
        for (const std::string& format : list(value, field)) {
          if (format == "NC1HWC0") info.nc1hwc0 = true;
          else if (format != "ND") bad(value, field, format, "ND or NC1HWC0");
        }
      } else if (key == "fixed_dtype_inputs") {
        for (const std::string& index : list(value, field)) {
          int parsed = -1;
          if (!YAML::convert<int>::decode(YAML::Node(index), parsed) || parsed < 0)
            bad(value, field, index, "input indices (non-negative integers)");
          info.fixed_dtype_inputs.push_back(parsed);
        }
      } else if (key == "impl_modes") {
        for (const std::string& mode : list(value, field)) {
          if (mode != "high_precision" && mode != "high_performance")
            bad(value, field, mode, "high_precision or high_performance");
          info.impl_modes.push_back(mode);
        }
      }
    }
    if (info.dtypes.empty())
      throw Error(ErrorCode::ConfigMissingKey, info.source + ": entry '" + op_type + "' needs 'dtypes'");
    return info;
  }

  std::string scalar(const YAML::Node& node, const std::string& field) const {
    if (!node.IsScalar()) throw Error(ErrorCode::ConfigWrongType, where(node.Mark()) + ": '" + field + "' must be text");
    return node.Scalar();
  }

  bool boolean(const YAML::Node& node, const std::string& field) const {
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value))
      throw Error(ErrorCode::ConfigWrongType, where(node.Mark()) + ": '" + field + "' must be true or false");
    return value;
  }

  std::vector<std::string> list(const YAML::Node& node, const std::string& field) const {
    if (!node.IsSequence())
      throw Error(ErrorCode::ConfigWrongType, where(node.Mark()) + ": '" + field + "' must be a list");
    std::vector<std::string> items;
    for (const YAML::Node& item : node) items.push_back(scalar(item, field));
    return items;
  }

  std::vector<DType> dtypes(const YAML::Node& node, const std::string& field) const {
    std::vector<DType> parsed;
    for (const std::string& name : list(node, field)) {
      const std::optional<DType> dtype = parse_dtype(name);
      if (!dtype) bad(node, field, name, "dtype names such as float16, float32, int8");
      parsed.push_back(*dtype);
    }
    return parsed;
  }

  [[noreturn]] void bad(const YAML::Node& node, const std::string& field, const std::string& value,
                        const std::string& expected) const {
    throw Error(ErrorCode::ConfigBadValue,
                where(node.Mark()) + ": '" + field + "' has '" + value + "'; expected " + expected);
  }

  std::string where(const YAML::Mark& mark) const { return file_.string() + ":" + std::to_string(mark.line + 1); }

  std::filesystem::path file_;
  YAML::Node root_;
};

}  // namespace

bool OpInfo::supports(DType dtype) const { return std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end(); }

bool OpInfo::ai_cpu_supports(DType dtype) const {
  return std::find(ai_cpu_dtypes.begin(), ai_cpu_dtypes.end(), dtype) != ai_cpu_dtypes.end();
}

OpInfoTable::OpInfoTable(std::string soc_version, std::map<std::string, OpInfo> ops, OpInfo fallback)
    : soc_version_(std::move(soc_version)), ops_(std::move(ops)), fallback_(std::move(fallback)) {}

const OpInfo& OpInfoTable::find(const std::string& domain, const std::string& op_type) const {
  if (domain.empty() || domain == "ai.onnx" || domain == "asc") {
    const auto found = ops_.find(op_type);
    if (found != ops_.end()) return found->second;
  }
  const auto plugin = plugin_ops_.find({domain == "ai.onnx" ? "" : domain, op_type});
  return plugin == plugin_ops_.end() ? fallback_ : plugin->second;
}

void OpInfoTable::add_plugin_ops(const OpRegistry& ops) {
  for (const OpDefinition& op : ops.all()) {
    const std::vector<DType>* dtypes = op.kernel_info.dtypes_for(soc_version_);
    if (dtypes == nullptr) continue;
    OpInfo info = fallback_;
    info.op_type = op.op_type;
    info.dtypes = *dtypes;
    info.source = "plugin " + op.plugin + " (" + (op.domain.empty() ? "" : op.domain + "::") + op.op_type + ")";
    plugin_ops_[{op.domain, op.op_type}] = std::move(info);
  }
}

OpInfoTable load_op_info(const std::string& soc_version, const std::filesystem::path& soc_dir) {
  const std::filesystem::path dir = soc_dir / "ops_info";
  const std::filesystem::path file = dir / (soc_version + ".yaml");
  const OpInfoReader reader(file);
  std::map<std::string, OpInfo> ops;
  std::optional<OpInfo> fallback;
  if (const std::string base = reader.base(); !base.empty()) {
    if (base.find('/') != std::string::npos)
      throw Error(ErrorCode::ConfigBadValue, file.string() + ": 'base' must name a file in " + dir.string());
    const OpInfoReader base_reader(dir / base);
    if (!base_reader.base().empty())
      throw Error(ErrorCode::ConfigBadValue, (dir / base).string() + ": a base file cannot have a base itself");
    ops = base_reader.ops();
    if (base_reader.has_default()) fallback = base_reader.default_entry();
  }
  for (auto& [op_type, info] : reader.ops()) ops[op_type] = std::move(info);
  if (reader.has_default()) fallback = reader.default_entry();
  if (!fallback)
    throw Error(ErrorCode::ConfigMissingKey, file.string() + ": no 'default' entry (in the file or its base)");
  return OpInfoTable(soc_version, std::move(ops), std::move(*fallback));
}

}  // namespace asc::npusim
