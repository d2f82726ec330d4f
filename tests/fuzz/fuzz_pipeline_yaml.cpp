// libFuzzer harness: YAML pipeline files (yaml-cpp, then the document's structure checks) and
// the variable substitution every `with:` value goes through. Any input must parse or throw
// asc::Error.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <asc/sdk/error.hpp>

#include "asc/host/pipeline_document.hpp"
#include "asc/host/pipeline_variables.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto document = asc::host::parse_pipeline_document(text, "fuzz.yaml");
    std::map<std::string, std::string> values;
    for (const auto& variable : document.variables) values[variable.name] = variable.default_value.value_or("x");
    for (const auto& entry : document.stages) {
      for (const auto& argument : entry.arguments) {
        (void)asc::host::substitute_variables(argument.value, values, argument.value_where);
      }
    }
  } catch (const asc::Error&) {
  }
  return 0;
}
