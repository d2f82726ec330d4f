// ais_bench's command line (reference §3: the S14 ais_bench options, msit benchmark's spellings
// as aliases, the seed's --batch), parsed with the host's Ascend-style flag parser and mapped
// onto the parameters of the ais_bench.run stage.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace asc::ais_bench {

struct Invocation {
  bool help = false;
  std::string model;                          // the .om, also read for its custom operator plugins
  std::string backend = "npusim";             // --backend
  std::map<std::string, std::string> params;  // ais_bench.run parameter -> value
};

// The --help text.
std::string usage();

// `arguments` without the program name; `program` is argv[0] (recorded in _summary.json's
// "args" as Python's sys.argv would). Throws asc::Error EE5008 for an unknown or repeated flag,
// a missing value, a missing --model, or a value ais_bench rejects (a loop count that is not
// positive, ...).
Invocation parse_command_line(const std::string& program, const std::vector<std::string>& arguments);

}  // namespace asc::ais_bench
