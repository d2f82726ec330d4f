// modelTrade's command line (the seed's form):
//   modelTrade --report=./profiling_output --output=perf.json --format=json
// Every flag is `--flag=value` or `--flag value`; each maps to a profiler.analyse parameter.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace asc::model_trade {

struct Invocation {
  bool help = false;
  std::map<std::string, std::string> params;  // profiler.analyse parameter -> value
};

extern const char* const kUsage;

// EE5008 for an unknown flag (with a suggestion), a missing value, a flag given twice, a stray
// argument, or no --report.
Invocation parse_command_line(const std::vector<std::string>& arguments);

}  // namespace asc::model_trade
