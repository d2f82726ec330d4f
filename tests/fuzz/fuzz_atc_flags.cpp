// libFuzzer harness: atc's command line (the flag parser and the request built from the flags:
// input shapes, dynamic profiles, output types, op lists). The input is the argument list,
// arguments separated by NUL bytes. Any input must parse or throw asc::Error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include "asc/host/ascend_flags.hpp"
#include "atc_flags.hpp"
#include "atc_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> arguments(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) arguments.emplace_back();
    else arguments.back() += static_cast<char>(data[i]);
  }
  try {
    const auto flags = asc::host::parse_ascend_flags("atc", asc::atc::atc_flag_specs(), arguments);
    (void)asc::atc::build_request(flags, asc::atc::command_line_text(arguments));
  } catch (const asc::Error&) {
  }
  return 0;
}
