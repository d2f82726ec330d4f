// docs/errors.md documents every error code, with the summary the code prints.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <asc/sdk/error.hpp>

namespace {

std::map<std::string, std::string> documented_codes() {
  std::ifstream file(ASC_SOURCE_DIR "/docs/errors.md");
  REQUIRE(file.good());
  std::map<std::string, std::string> codes;
  const std::regex row(R"(^\| (EE\d{4}) \| ([^|]+?) \|)");
  for (std::string line; std::getline(file, line);) {
    std::smatch match;
    if (std::regex_search(line, match, row)) codes[match[1]] = match[2];
  }
  return codes;
}

}  // namespace

TEST_CASE("every error code is documented with its summary, and nothing else is") {
  auto documented = documented_codes();
  for (asc::ErrorCode code : asc::all_error_codes()) {
    const std::string id = asc::error_code_id(code);
    INFO("code " << id);
    REQUIRE(documented.count(id) == 1);
    CHECK(documented[id] == std::string(asc::error_code_summary(code)));
    documented.erase(id);
  }
  CHECK_MESSAGE(documented.empty(), "documented but not in error.hpp: " << documented.begin()->first);
}
