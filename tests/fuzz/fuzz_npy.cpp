// libFuzzer harness: .npy decoding (asc::decode_npy), as every tool reads --input, dumps and goldens.
// Any input must decode or throw asc::Error; a crash, a sanitizer report or another exception is a bug.
#include <cstddef>
#include <cstdint>
#include <span>

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const asc::Tensor tensor = asc::decode_npy(std::as_bytes(std::span(data, size)), "fuzz.npy");
    (void)tensor.to_doubles();  // touch every element the header claims
  } catch (const asc::Error&) {
  }
  return 0;
}
