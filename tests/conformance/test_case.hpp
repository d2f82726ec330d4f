// ONNX backend test cases on disk: <data root>/<suite>/<test name>/{model.onnx, test_data_set_N/}.
#pragma once

#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace asc::conformance {

inline const std::vector<std::string> kAllSuites{"node", "simple", "pytorch-converted", "pytorch-operator"};

struct TestCase {
  std::string suite;
  std::string name;
  std::filesystem::path dir;

  // "node/test_abs": how tests are named in reports and in expected_pass.txt.
  std::string id() const { return suite + "/" + name; }
};

// Every test directory with a model.onnx in the given suites, sorted by id; with a filter, only
// the ids it matches (std::regex_search). Throws std::runtime_error for a missing suite folder.
std::vector<TestCase> discover_test_cases(const std::filesystem::path& data_root,
                                          const std::vector<std::string>& suites,
                                          const std::optional<std::regex>& filter);

}  // namespace asc::conformance
