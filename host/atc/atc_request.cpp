#include "atc_request.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "dynamic_profiles.hpp"
#include "asc/host/close_names.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/io.hpp"
#include "asc/sdk/log.hpp"

namespace asc::atc {
namespace {

// Flags whose value goes to the pipeline variable of the same name unchanged (the names of
// npusim.compile's parameters and CompileOptions' fields, or of onnx.load / fusion.optimize).
constexpr const char* kPassThrough[] = {
    "out_nodes",       "enable_scope_fusion", "fusion_switch_file",      "soc_version",
    "precision_mode",  "op_select_implmode",  "optypelist_for_implmode", "output_type",
    "input_format",    "buffer_optimize",     "enable_small_channel",    "enable_l2dynamic",
    "disable_reuse_memory", "debug_dir",       "input_fp16_nodes",
};

// Flags that mean something in one mode only (help, log and mode apply to both).
constexpr const char* kOmToJsonFlags[] = {"om", "json", "json_layout"};

Error required(const std::string& flag, const std::string& what) {
  return Error(ErrorCode::UsageError, "the required flag --" + flag + " is empty: " + what);
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

void check_framework(const host::ParsedFlags& flags) {
  const std::string value = flags.get("framework");
  if (!flags.has("framework") || value.empty())
    throw required("framework", "give --framework=5 (ONNX)");
  if (value == "5") return;
  const std::vector<std::pair<std::string, std::string>> unsupported{{"0", "Caffe"}, {"1", "MindSpore"}, {"3", "TensorFlow"}};
  for (const auto& [number, name] : unsupported)
    if (value == number)
      throw host::invalid_flag_value("framework", value,
                                     "framework " + number + " (" + name +
                                         ") is not supported yet; only 5 (ONNX) is: export the model to ONNX",
                                     ErrorCode::FrameworkUnsupported);
  throw host::invalid_flag_value("framework", value,
                                 "the value must be 0 (Caffe), 1 (MindSpore), 3 (TensorFlow) or 5 (ONNX); "
                                 "this atc supports 5");
}

// "resnet50" -> "resnet50.om"; a path that names no file is refused, as ATC's E10022.
std::string om_path(const std::string& output) {
  if (output.empty()) throw required("output", "give the .om path without its suffix, e.g. --output=resnet50");
  const std::filesystem::path path(output);
  if (output.back() == '/' || path.filename() == "." || path.filename() == "..")
    throw host::invalid_flag_value("output", output, "the path does not include a file name (e.g. out/resnet50)");
  return output + ".om";
}

// As the success line shows it: a relative path gets "./" unless it already starts with '.'.
std::string shown_path(const std::string& om) {
  const std::filesystem::path path(om);
  if (path.is_absolute() || om.rfind("./", 0) == 0 || om.rfind("../", 0) == 0) return om;
  return "./" + om;
}

void check_output_type(const std::string& value) {
  if (value.empty() || value.find(':') != std::string::npos) return;  // per-output entries: the compiler reads them
  const std::vector<std::string> types{"FP32", "FP16", "UINT8"};
  if (std::find(types.begin(), types.end(), value) == types.end())
    throw host::invalid_flag_value("output_type", value,
                                   "use FP32, FP16 or UINT8, or per output \"node:index:TYPE;...\"" +
                                       host::did_you_mean(value, types));
}

// What is at `path`, given as --`flag`, without throwing std::filesystem_error: a path the system
// cannot look up at all (a name too long, a loop of links) is refused as the flag's bad value.
std::filesystem::file_status flag_path_status(std::string_view flag, const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error && error != std::errc::no_such_file_or_directory && error != std::errc::not_a_directory)
    throw host::invalid_flag_value(flag, path, "the path cannot be looked up (" + error.message() + ")");
  return status;
}

// ATC's keep_dtype file: one node name a line (ATC's OpType::Name lines are passed on as well).
std::string keep_dtype_nodes(const std::string& file) {
  if (!std::filesystem::exists(flag_path_status("keep_dtype", file)))
    throw Error(ErrorCode::FileNotFound, "--keep_dtype file '" + file + "' does not exist");
  const auto bytes = read_file(file);
  std::string names;
  std::string line;
  for (std::size_t i = 0; i <= bytes.size(); ++i) {
    if (i == bytes.size() || static_cast<char>(bytes[i]) == '\n') {
      if (const std::string name = trim(line); !name.empty()) names += (names.empty() ? "" : ",") + name;
      line.clear();
    } else {
      line += static_cast<char>(bytes[i]);
    }
  }
  if (names.empty()) throw host::invalid_flag_value("keep_dtype", file, "the file lists no node name");
  return names;
}

std::vector<std::filesystem::path> op_lib_dirs(const std::string& value) {
  std::vector<std::filesystem::path> dirs;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t end = std::min(value.find(',', start), value.size());
    if (const std::string item = trim(value.substr(start, end - start)); !item.empty()) {
      const std::filesystem::file_status status = flag_path_status("op_lib_path", item);
      if (std::filesystem::exists(status) && !std::filesystem::is_directory(status))
        throw host::invalid_flag_value("op_lib_path", item,
                                       "it is a file; --op_lib_path takes directories of operator plugins: give '" +
                                           std::filesystem::absolute(item).parent_path().string() + "'");
      if (!std::filesystem::is_directory(status))
        throw Error(ErrorCode::FileNotFound, "--op_lib_path directory '" + item + "' does not exist");
      dirs.push_back(std::filesystem::weakly_canonical(std::filesystem::absolute(item)));
    }
    start = end + 1;
  }
  if (dirs.empty()) throw host::invalid_flag_value("op_lib_path", value, "it names no directory");
  return dirs;
}

void warn_unused(const host::ParsedFlags& flags, bool om_to_json) {
  for (const auto& [name, value] : flags.values()) {
    if (name == "help" || name == "log" || name == "mode") continue;
    const bool json_flag = std::find(std::begin(kOmToJsonFlags), std::end(kOmToJsonFlags), name) != std::end(kOmToJsonFlags);
    if (json_flag != om_to_json)
      log_warning("atc: " + flags.spelling(name) + " is ignored with --mode=" + (om_to_json ? "1" : "0"));
  }
}

AtcRequest om_to_json_request(const host::ParsedFlags& flags) {
  if (flags.get("om").empty()) {
    if (!flags.get("model").empty())
      throw Error(ErrorCode::UsageError,
                  "--mode=1 converts an .om to JSON; converting an original model (--model) is not supported: "
                  "compile it first, then give --om");
    throw required("om", "--mode=1 converts the .om given by --om=MODEL.om");
  }
  if (flags.get("json").empty()) throw required("json", "--mode=1 writes the JSON file given by --json=MODEL.json");
  warn_unused(flags, true);
  AtcRequest request;
  request.mode = AtcMode::OmToJson;
  request.variables = {{"om", flags.get("om")}, {"json", flags.get("json")}, {"layout", flags.get("json_layout", "asc")}};
  const std::filesystem::path inputs[] = {flags.get("om")};
  refuse_output_over_inputs(flags.get("json"), inputs, "--json");
  return request;
}

}  // namespace

AtcRequest build_request(const host::ParsedFlags& flags, const std::string& command_line) {
  AtcRequest request;
  if (flags.get("mode", "0") == "1") return om_to_json_request(flags);
  if (flags.get("model").empty()) throw required("model", "give the model to convert, e.g. --model=resnet50.onnx");
  check_framework(flags);
  const std::string om = om_path(flags.get("output"));
  if (flags.get("soc_version").empty()) throw required("soc_version", "give the target chip, e.g. --soc_version=Ascend310P3");
  if (const std::string format = flags.get("input_format"); format == "NHWC" || format == "NDHWC")
    throw host::invalid_flag_value("input_format", format, "ONNX models take NCHW, ND or NCDHW");
  if (!flags.get("optypelist_for_implmode").empty() && flags.get("op_select_implmode").empty())
    throw Error(ErrorCode::UsageError, "--optypelist_for_implmode='" + flags.get("optypelist_for_implmode") +
                                           "' needs --op_select_implmode (the mode it selects for those op types)");
  check_output_type(flags.get("output_type"));
  warn_unused(flags, false);

  const DynamicShapes shapes = resolve_dynamic_shapes(flags);
  auto& variables = request.variables;
  variables.push_back({"model", flags.get("model")});
  variables.push_back({"output", om});
  variables.push_back({"command_line", command_line});
  for (const char* name : kPassThrough)
    if (flags.has(name)) variables.push_back({name, flags.get(name)});
  const std::pair<const char*, const std::string*> dynamic[] = {{"input_shape", &shapes.input_shape},
                                                               {"dynamic_batch_size", &shapes.dynamic_batch_size},
                                                               {"dynamic_image_size", &shapes.dynamic_image_size},
                                                               {"dynamic_dims", &shapes.dynamic_dims}};
  for (const auto& [name, value] : dynamic)
    if (!value->empty()) variables.push_back({name, *value});
  if (flags.has("keep_dtype")) variables.push_back({"keep_dtype_nodes", keep_dtype_nodes(flags.get("keep_dtype"))});
  if (flags.has("op_lib_path")) {
    request.op_lib_dirs = op_lib_dirs(flags.get("op_lib_path"));
    std::vector<std::string> dirs;
    for (const auto& dir : request.op_lib_dirs) dirs.push_back(dir.string());
    variables.push_back({"op_lib_paths", host::join(dirs, ",")});
  }
  std::vector<std::filesystem::path> inputs{flags.get("model")};
  if (flags.has("keep_dtype")) inputs.emplace_back(flags.get("keep_dtype"));
  refuse_output_over_inputs(om, inputs, "--output");
  request.saved_path = shown_path(om);
  return request;
}

std::string command_line_text(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& argument : argv) {
    const bool plain = !argument.empty() && std::all_of(argument.begin(), argument.end(), [](unsigned char c) {
      return std::isalnum(c) != 0 || std::string_view("-_=./,:+@%").find(static_cast<char>(c)) != std::string_view::npos;
    });
    std::string quoted = "'";
    for (const char c : argument) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += (text.empty() ? "" : " ") + (plain ? argument : quoted + "'");
  }
  return text;
}

}  // namespace asc::atc
