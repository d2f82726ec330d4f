// op_validate's command line: `--flag=value` or `--flag value`, mapped onto the parameters of
// validator.compare_files (--golden/--actual) or validator.compare_dirs (--golden_dir/--actual_dir).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace asc::op_validate {

struct Invocation {
  bool help = false;
  std::string stage;                          // "validator.compare_files" or "validator.compare_dirs"
  std::map<std::string, std::string> params;  // stage parameter -> value
};

extern const char* const kUsage;

// Throws asc::Error EE5008 for an unknown or repeated flag, a missing value or required flag,
// positional arguments, or file and directory flags mixed.
Invocation parse_command_line(const std::vector<std::string>& arguments);

}  // namespace asc::op_validate
