// Pipeline variables: `--set name=value` assignments and `${name}` substitution.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "asc/host/pipeline_document.hpp"
#include "asc/host/source_location.hpp"

namespace asc::host {

struct VariableAssignment {
  std::string name;
  std::string value;
};

// "name=value" (the value may be empty or contain '='). EE5008 naming the argument otherwise.
VariableAssignment parse_assignment(std::string_view argument);

// Declared defaults overridden by assignments (later assignments win). EE5006 for an assignment
// to an undeclared variable, EE5004 for a required variable left unset; both cite the file.
std::map<std::string, std::string> resolve_variables(const PipelineDocument& document,
                                                     const std::vector<VariableAssignment>& assignments);

// Replaces every ${name} in `text`; "$${" stands for a literal "${". Values are inserted as they
// are (not substituted again). EE5006 for an unknown name, EE5007 for an unterminated "${",
// both citing `where`.
std::string substitute_variables(std::string_view text, const std::map<std::string, std::string>& values,
                                 const SourceLocation& where);

}  // namespace asc::host
