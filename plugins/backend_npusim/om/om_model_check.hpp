// Consistency of a decoded .om: every value a node reads exists (graph input, initializer or an
// earlier node's output; outer-scope values inside subgraphs), every graph output is produced,
// and every profile refers to nodes and inputs the graph has.
#pragma once

#include <string>

#include "compiler/compiled_model.hpp"

namespace asc::npusim {

// Throws EE4004 naming `origin` and what is missing.
void check_om_references(const CompiledModel& model, const std::string& origin);

}  // namespace asc::npusim
