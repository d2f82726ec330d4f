// libFuzzer harness: the ONNX loader (protobuf decoding, the model sanity checks, external data,
// the opset policy and version converter, ONNX's checker and shape inference, the conversion to
// asc::Graph). The parser reads files, so each input is written to one scratch file first.
// Any input must parse or throw asc::Error.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <asc/sdk/error.hpp>

#include "onnx_parser.hpp"

namespace {

std::filesystem::path scratch_model() {
  const std::filesystem::path shm = "/dev/shm";
  const auto directory = std::filesystem::is_directory(shm) ? shm : std::filesystem::temp_directory_path();
  return directory / ("fuzz_onnx_" + std::to_string(::getpid()) + ".onnx");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto model = scratch_model();
  {
    std::ofstream file(model, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    (void)asc::parser_onnx::OnnxParser().parse(model, {});
  } catch (const asc::Error&) {
  }
  return 0;
}
