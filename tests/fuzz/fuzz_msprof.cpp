// libFuzzer harness: modelTrade's input, an msprof profile directory (op_summary CSV, optional
// task_time CSV and msprof timeline JSON), read and then analysed (summary, rules, advice, the
// JSON report). The input holds the files' texts separated by NUL bytes, in that order; they are
// written to one scratch directory, since the reader looks for files by msprof's names.
// Any input must be analysed or throw asc::Error.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <asc/sdk/error.hpp>

#include "analysis/model_trade_profiler.hpp"
#include "msprof/msprof_reader.hpp"

namespace {

std::filesystem::path scratch_directory() {
  const std::filesystem::path shm = "/dev/shm";
  const auto parent = std::filesystem::is_directory(shm) ? shm : std::filesystem::temp_directory_path();
  auto directory = parent / ("fuzz_msprof_" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  return directory;
}

void write_or_remove(const std::filesystem::path& file, std::string_view text, bool present) {
  if (!present) {
    std::filesystem::remove(file);
    return;
  }
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto directory = scratch_directory();
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const char* const names[] = {"op_summary_0_1.csv", "task_time_0_1.csv", "msprof_0_1.json"};
  std::size_t begin = 0;
  for (std::size_t part = 0; part < 3; ++part) {
    const bool present = begin <= input.size();
    const auto end = present ? std::min(input.find('\0', begin), input.size()) : input.size();
    write_or_remove(directory / names[part], present ? input.substr(begin, end - begin) : std::string_view(), present);
    begin = end + 1;
  }
  try {
    const auto profile = asc::profiler::read_msprof_profile(directory);
    (void)asc::profiler::ModelTradeProfiler().analyse(profile.trace, asc::profiler::source_section(profile));
  } catch (const asc::Error&) {
  }
  return 0;
}
