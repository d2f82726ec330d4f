#include "atc_support.hpp"

#include <cstdlib>
#include <sstream>

#include <doctest/doctest.h>

#include "atc_request.hpp"

namespace asc::atc::testing {

AtcRun run_atc(const std::vector<std::string>& arguments, const host::testing::ScratchDir& cwd) {
  std::vector<std::string> command{ASC_ATC_EXECUTABLE};
  command.insert(command.end(), arguments.begin(), arguments.end());
  // command_line_text quotes exactly what a shell would split.
  const auto result = host::testing::run_process("cd '" + cwd.path().string() + "' && " + command_line_text(command), cwd);
  AtcRun run{result.exit_code, {}, result.err};
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) run.out_lines.push_back(line);
  return run;
}

std::filesystem::path model(const std::string& name) {
  static const bool generated = [] {
    const std::string command = std::string(ASC_TEST_PYTHON) + " '" + ASC_SOURCE_DIR + "/tests/atc/make_models.py' '" +
                                ASC_ATC_MODEL_DIR + "'";
    return std::system(command.c_str()) == 0;
  }();
  REQUIRE_MESSAGE(generated, "tests/atc/make_models.py failed");
  return std::filesystem::path(ASC_ATC_MODEL_DIR) / name;
}

nlohmann::json om_json(const std::filesystem::path& om, const host::testing::ScratchDir& cwd) {
  const auto json = cwd / (om.stem().string() + ".json");
  const auto run = run_atc({"--mode=1", "--om=" + om.string(), "--json=" + json.string()}, cwd);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  REQUIRE(run.out_lines.back() == "ATC run success, welcome to the next use.");
  return nlohmann::json::parse(host::testing::read_text(json));
}

}  // namespace asc::atc::testing
