#include "asc/host/long_flags.hpp"

#include <asc/sdk/error.hpp>

#include "asc/host/close_names.hpp"

namespace asc::host {
namespace {

[[noreturn]] void long_flag_usage_error(std::string_view tool, const std::string& message) {
  throw Error(ErrorCode::UsageError, message + " (run `" + std::string(tool) + " --help`)");
}

const LongFlag& find_flag(std::string_view tool, const std::vector<LongFlag>& flags, const std::string& name) {
  for (const LongFlag& flag : flags)
    if (name == flag.name) return flag;
  std::vector<std::string> names;
  for (const LongFlag& flag : flags) names.push_back(flag.name);
  long_flag_usage_error(tool, "unknown option '--" + name + "'" + did_you_mean(name, names));
}

}  // namespace

std::map<std::string, std::string> parse_long_flags(std::string_view tool, const std::vector<LongFlag>& flags,
                                                    const std::vector<std::string>& arguments,
                                                    std::string_view example) {
  std::map<std::string, std::string> given;
  bool short_help = false;  // `-h`: not a --flag, so it may stand beside --help
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "-h") {
      short_help = true;
      continue;
    }
    if (argument.rfind("--", 0) != 0 || argument.size() == 2)
      long_flag_usage_error(tool, "unexpected argument '" + argument +
                                      "': every input is given with a flag such as " + std::string(example));
    const auto equals = argument.find('=');
    const std::string name = argument.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const LongFlag& flag = find_flag(tool, flags, name);
    std::string value;
    if (!flag.takes_value) {
      if (equals != std::string::npos) long_flag_usage_error(tool, "--" + name + " takes no value");
    } else if (equals != std::string::npos) {
      value = argument.substr(equals + 1);
    } else {
      if (i + 1 >= arguments.size()) long_flag_usage_error(tool, "--" + name + " needs a value");
      value = arguments[++i];
    }
    if (!given.emplace(name, value).second) long_flag_usage_error(tool, "--" + name + " is given twice");
  }
  if (short_help) given.emplace("help", "");
  return given;
}

}  // namespace asc::host
