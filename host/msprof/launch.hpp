// Starting the profiled application: msprof's command-line mode hands its options to the
// application's runtime in PROFILER_SAMPLECONFIG (a JSON object), then waits for it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace asc::msprof {

// The executable `program` names: a path (with a '/') as given, else the first match on $PATH.
// Throws EE4001 when there is none or it is not executable.
std::filesystem::path find_program(const std::string& program);

// Runs `application` (program and arguments) with `variable`=`value` added to its environment and
// waits for it. Returns its exit status, or 128 + the signal that ended it. Throws EE9001 when the
// process cannot be started.
int run_with_environment(const std::filesystem::path& program, const std::vector<std::string>& application,
                         const std::string& variable, const std::string& value);

}  // namespace asc::msprof
