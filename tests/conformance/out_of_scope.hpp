// Operator families the project deliberately does not implement (out_of_scope.txt). Tests that
// touch one are counted apart, never run and never silently dropped.
//
// File format: blocks separated by blank lines; '#' starts a comment line. Each block is
//   family: <name>
//   reason: <why the project leaves it out>
//   ops: <op type> ...            (optional) any node of these types, subgraphs included
//   domains: <domain> ...         (optional) any node of these domains
//   values: <kind> ...            (optional) any value of these kinds (model_facts.hpp)
// with at least one of ops / domains / values.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "model_facts.hpp"

namespace asc::conformance {

struct OutOfScopeFamily {
  std::string name;
  std::string reason;
  std::set<std::string> ops;
  std::set<std::string> domains;
  std::set<std::string> value_kinds;
};

// Throws std::runtime_error naming file:line for anything malformed.
std::vector<OutOfScopeFamily> load_out_of_scope(const std::filesystem::path& file);

// The first family the model touches, or nullptr.
const OutOfScopeFamily* find_out_of_scope_family(const std::vector<OutOfScopeFamily>& families,
                                                 const ModelFacts& facts);

}  // namespace asc::conformance
