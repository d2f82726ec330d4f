// The subcommands of `asc`. Each takes the arguments after its name, prints to stdout, returns
// the exit code, and throws asc::Error (or StageFailure) for main to report.
#pragma once

#include <string>
#include <vector>

namespace asc::cli {

int plugins_command(const std::vector<std::string>& arguments);
int stages_command(const std::vector<std::string>& arguments);
int run_command(const std::vector<std::string>& arguments);

}  // namespace asc::cli
