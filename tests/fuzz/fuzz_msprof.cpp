// libFuzzer harness: modelTrade's input, an msprof profile (op_summary CSV, optional task_time CSV
// and msprof timeline JSON), read and then analysed (summary, rules, advice, the JSON report). The
// input holds the files' texts separated by NUL bytes, in that order. The reader gets them from
// memory (read_msprof_files) rather than from files written per input for read_msprof_profile:
// what the input varies is the texts, and finding files by name in a directory is the same every
// time (tests/profiler/test_msprof_reader.cpp covers it). Any input must be analysed or throw
// asc::Error.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <asc/sdk/error.hpp>

#include "analysis/model_trade_profiler.hpp"
#include "msprof/msprof_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  asc::profiler::MsprofFiles files;
  files.directory = "fuzz_msprof";
  std::vector<std::filesystem::path>* const roles[] = {&files.op_summary, &files.task_time, &files.timeline_json};
  const char* const names[] = {"op_summary_0_1.csv", "task_time_0_1.csv", "msprof_0_1.json"};
  std::map<std::filesystem::path, std::string_view> texts;
  std::size_t begin = 0;
  for (std::size_t part = 0; part < 3 && begin <= input.size(); ++part) {
    const auto end = std::min(input.find('\0', begin), input.size());
    const auto path = files.directory / names[part];
    roles[part]->push_back(path);
    texts[path] = input.substr(begin, end - begin);
    begin = end + 1;
  }
  try {
    const auto profile = asc::profiler::read_msprof_files(
        files, [&texts](const std::filesystem::path& path) { return std::string(texts.at(path)); });
    (void)asc::profiler::ModelTradeProfiler().analyse(profile.trace, asc::profiler::source_section(profile));
  } catch (const asc::Error&) {
  }
  return 0;
}
