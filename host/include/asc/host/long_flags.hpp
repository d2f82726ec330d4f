// The plain `--flag=value` / `--flag value` command lines of op_validate and modelTrade (no
// single-dash or hyphenated spellings: ATC and ais_bench take those, see ascend_flags.hpp).
// `-h` stands for --help.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace asc::host {

struct LongFlag {
  std::string name;
  bool takes_value = true;
};

// The flags given, by name (a flag without a value maps to ""). Throws asc::Error EE5008, ending
// "(run `TOOL --help`)", for a positional argument (the message suggests `example`, e.g.
// "--report=DIR"), an unknown flag (with "did you mean"), a flag given twice, a missing value, or
// a value given to a flag that takes none.
std::map<std::string, std::string> parse_long_flags(std::string_view tool, const std::vector<LongFlag>& flags,
                                                    const std::vector<std::string>& arguments,
                                                    std::string_view example);

}  // namespace asc::host
