// libFuzzer harness: the .om reader (header, checksum, protobuf payload, model checks). The
// checksum would stop nearly every mutation, so the harness puts a valid header in front of the
// fuzzed payload, as om_errors_test does: the protobuf parser and the model checks meet it.
// Any input must decode or throw asc::Error.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include <asc/sdk/error.hpp>

#include "om/om_file.hpp"
#include "om/om_header.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto payload = std::as_bytes(std::span(data, size));
  const auto header = asc::npusim::om_header_for(payload);
  std::vector<std::byte> file(header.begin(), header.end());
  file.insert(file.end(), payload.begin(), payload.end());
  try {
    (void)asc::npusim::decode_om(file, "fuzz.om");
  } catch (const asc::Error&) {
  }
  return 0;
}
