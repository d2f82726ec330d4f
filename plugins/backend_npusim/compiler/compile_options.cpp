// parse_compile_options: BackendOptions (keys = CompileOptions field names, values as ATC spells
// them) -> CompileOptions. Syntax and allowed values are checked here; whether a value fits the
// model (dynamic dims, output node names) is checked by the compiler passes that use it.
#include <asc/sdk/error.hpp>
#include <algorithm>
#include <functional>
#include <string_view>

#include "compiled_model.hpp"

namespace asc::npusim {
namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

// Items separated by any of `separators`, trimmed, empty ones dropped.
std::vector<std::string> split(std::string_view text, std::string_view separators) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find_first_of(separators, start), text.size());
    if (std::string item = trimmed(text.substr(start, end - start)); !item.empty()) items.push_back(std::move(item));
    start = end + 1;
  }
  return items;
}

[[noreturn]] void bad_value(const std::string& key, const std::string& value, const std::string& allowed) {
  throw Error(ErrorCode::ConfigBadValue, "compile option " + key + "='" + value + "' is invalid: " + allowed);
}

std::string one_of(const std::string& key, const std::string& value, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    bad_value(key, value, "expected one of " + joined(allowed));
  return value;
}

bool boolean(const std::string& key, const std::string& value) {
  if (value == "1" || value == "true" || value == "True") return true;
  if (value == "0" || value == "false" || value == "False") return false;
  bad_value(key, value, "expected true/false or 1/0");
}

const std::vector<std::string>& output_types() {
  static const std::vector<std::string> types = {"FP32", "FP16", "UINT8"};
  return types;
}

// "node:index:TYPE;node2:index:TYPE" (ATC's per-output --output_type) into `per_output`, keyed
// "node:index". The seed's "output:TYPE" names a graph output value and is keyed by that name.
void parse_per_output_types(const std::string& key, const std::string& value,
                            std::map<std::string, std::string>& per_output) {
  for (const std::string& entry : split(value, ";")) {
    const auto type_colon = entry.rfind(':');
    const auto index_colon =
        type_colon == std::string::npos || type_colon == 0 ? std::string::npos : entry.rfind(':', type_colon - 1);
    if (type_colon != std::string::npos && type_colon > 0 && index_colon == std::string::npos) {
      per_output[entry.substr(0, type_colon)] = one_of(key, entry.substr(type_colon + 1), output_types());
      continue;
    }
    if (index_colon == std::string::npos || index_colon == 0)
      bad_value(key, value, "entry '" + entry + "' is not node:index:TYPE or output_name:TYPE");
    const std::string node = entry.substr(0, index_colon);
    const std::string index = entry.substr(index_colon + 1, type_colon - index_colon - 1);
    const std::string type = entry.substr(type_colon + 1);
    if (index.empty() || !std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }))
      bad_value(key, value, "entry '" + entry + "': output index '" + index + "' is not a non-negative integer");
    one_of(key, type, output_types());
    per_output[node + ":" + index] = type;
  }
}

using Setter = std::function<void(CompileOptions&, const std::string& key, const std::string& value)>;

const std::map<std::string, Setter>& setters() {
  static const std::map<std::string, Setter> table = {
      {"soc_version", [](CompileOptions& o, const std::string&, const std::string& v) { o.soc_version = v; }},
      {"soc_dir", [](CompileOptions& o, const std::string&, const std::string& v) { o.soc_dir = v; }},
      {"precision_mode",
       [](CompileOptions& o, const std::string& k, const std::string& v) {
         o.precision_mode = v.empty() ? "force_fp16"
                                      : one_of(k, v,
                                               {"force_fp16", "allow_fp32_to_fp16", "must_keep_origin_dtype",
                                                "allow_mix_precision", "allow_mix_precision_fp16", "mixed_float16",
                                                "force_fp32", "cube_fp16in_fp32out"});
       }},
      {"op_select_implmode",
       [](CompileOptions& o, const std::string& k, const std::string& v) {
         o.op_select_implmode = v.empty() ? v
                                          : one_of(k, v,
                                                   {"high_precision", "high_performance", "high_precision_for_all",
                                                    "high_performance_for_all"});
       }},
      {"optypelist_for_implmode",
       [](CompileOptions& o, const std::string&, const std::string& v) { o.optypelist_for_implmode = split(v, ","); }},
      {"keep_dtype_nodes",
       [](CompileOptions& o, const std::string&, const std::string& v) { o.keep_dtype_nodes = split(v, ",\n"); }},
      {"output_type",
       [](CompileOptions& o, const std::string& k, const std::string& v) {
         // ATC's one flag carries either a global type or per-output entries.
         if (v.find(':') != std::string::npos) parse_per_output_types(k, v, o.output_type_per_output);
         else o.output_type = v.empty() ? v : one_of(k, v, output_types());
       }},
      {"output_type_per_output",
       [](CompileOptions& o, const std::string& k, const std::string& v) {
         parse_per_output_types(k, v, o.output_type_per_output);
       }},
      {"input_format",
       [](CompileOptions& o, const std::string& k, const std::string& v) {
         o.input_format = v.empty() ? v : one_of(k, v, {"NCHW", "NHWC", "ND", "NCDHW", "NDHWC"});
       }},
      {"input_fp16_nodes",
       [](CompileOptions& o, const std::string&, const std::string& v) { o.input_fp16_nodes = split(v, ";,"); }},
      {"dynamic_batch_size", [](CompileOptions& o, const std::string&, const std::string& v) { o.dynamic_batch_size = v; }},
      {"dynamic_image_size", [](CompileOptions& o, const std::string&, const std::string& v) { o.dynamic_image_size = v; }},
      {"dynamic_dims", [](CompileOptions& o, const std::string&, const std::string& v) { o.dynamic_dims = v; }},
      {"buffer_optimize",
       [](CompileOptions& o, const std::string& k, const std::string& v) {
         o.buffer_optimize = v.empty() ? "l2_optimize" : one_of(k, v, {"l2_optimize", "l1_optimize", "off_optimize"});
       }},
      {"enable_small_channel",
       [](CompileOptions& o, const std::string& k, const std::string& v) { o.enable_small_channel = boolean(k, v); }},
      {"enable_l2dynamic",
       [](CompileOptions& o, const std::string& k, const std::string& v) { o.enable_l2dynamic = boolean(k, v); }},
      {"disable_reuse_memory",
       [](CompileOptions& o, const std::string& k, const std::string& v) { o.disable_reuse_memory = boolean(k, v); }},
      {"debug_dir", [](CompileOptions& o, const std::string&, const std::string& v) { o.debug_dir = v; }},
      {"op_lib_paths", [](CompileOptions& o, const std::string&, const std::string& v) { o.op_lib_paths = split(v, ","); }},
      {"command_line", [](CompileOptions& o, const std::string&, const std::string& v) { o.command_line = v; }},
  };
  return table;
}

}  // namespace

CompileOptions parse_compile_options(const BackendOptions& options) {
  CompileOptions parsed;
  const auto& table = setters();
  for (const auto& [key, value] : options) {
    const auto setter = table.find(key);
    if (setter == table.end()) {
      std::vector<std::string> known;
      for (const auto& [name, unused] : table) known.push_back(name);
      throw Error(ErrorCode::ConfigUnknownKey,
                  "backend 'npusim' has no compile option '" + key + "' (options: " + joined(known) + ")");
    }
    setter->second(parsed, key, value);
  }
  if (!parsed.optypelist_for_implmode.empty() && parsed.op_select_implmode.empty())
    throw Error(ErrorCode::ConfigBadValue,
                "compile option optypelist_for_implmode needs op_select_implmode (ATC checks them together)");
  return parsed;
}

}  // namespace asc::npusim
