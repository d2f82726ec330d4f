#include "test_case.hpp"

#include <algorithm>
#include <stdexcept>

namespace asc::conformance {

std::vector<TestCase> discover_test_cases(const std::filesystem::path& data_root,
                                          const std::vector<std::string>& suites,
                                          const std::optional<std::regex>& filter) {
  std::vector<TestCase> tests;
  for (const std::string& suite : suites) {
    const std::filesystem::path suite_dir = data_root / suite;
    if (!std::filesystem::is_directory(suite_dir))
      throw std::runtime_error("no test suite folder " + suite_dir.string());
    for (const auto& entry : std::filesystem::directory_iterator(suite_dir)) {
      if (!std::filesystem::exists(entry.path() / "model.onnx")) continue;
      TestCase test{suite, entry.path().filename().string(), entry.path()};
      if (!filter || std::regex_search(test.id(), *filter)) tests.push_back(std::move(test));
    }
  }
  std::sort(tests.begin(), tests.end(), [](const TestCase& a, const TestCase& b) { return a.id() < b.id(); });
  return tests;
}

}  // namespace asc::conformance
