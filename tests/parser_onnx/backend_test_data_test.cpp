// Every model ONNX ships as backend test data must either parse or fail with an asc::Error;
// the pytorch-converted and pytorch-operator models (opset 6, converted to 11) must all parse.
#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>

#include "parser_fixture.hpp"

namespace asc::test {
namespace {

namespace fs = std::filesystem;

struct SweepResult {
  int parsed = 0;
  std::vector<std::string> refused;         // "<case>: <asc::Error>"
  std::vector<std::string> foreign_errors;  // exceptions that are not asc::Error
};

SweepResult parse_all(const std::string& folder) {
  std::vector<fs::path> models;
  for (const auto& entry : fs::directory_iterator(fs::path(ASC_ONNX_BACKEND_TEST_DATA) / folder))
    if (fs::exists(entry.path() / "model.onnx")) models.push_back(entry.path() / "model.onnx");
  std::sort(models.begin(), models.end());
  SweepResult result;
  for (const auto& model : models) {
    const std::string name = model.parent_path().filename().string();
    try {
      parse(model);
      ++result.parsed;
    } catch (const Error& error) {
      result.refused.push_back(name + ": " + error.what());
    } catch (const std::exception& error) {
      result.foreign_errors.push_back(name + ": " + error.what());
    }
  }
  std::cout << "[parser_onnx] " << folder << ": " << result.parsed << " of " << models.size() << " models parse\n";
  for (const auto& line : result.refused) std::cout << "  refused " << line << '\n';
  for (const auto& line : result.foreign_errors) std::cout << "  NOT asc::Error " << line << '\n';
  return result;
}

}  // namespace

TEST_CASE("ONNX backend test data: node and simple models parse or fail with asc::Error") {
  for (const std::string folder : {"node", "simple"}) {
    const SweepResult result = parse_all(folder);
    CHECK(result.foreign_errors.empty());
    CHECK(result.parsed > 0);
  }
}

TEST_CASE("ONNX backend test data: every pytorch model parses") {
  for (const std::string folder : {"pytorch-converted", "pytorch-operator"}) {
    const SweepResult result = parse_all(folder);
    CHECK(result.foreign_errors.empty());
    CHECK(result.refused.empty());
    CHECK(result.parsed > 0);
  }
}

}  // namespace asc::test
