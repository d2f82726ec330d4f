// A readable text form of a graph for `dump_after`: inputs, outputs, initializers (type only)
// and one line per node with its attributes and provenance; subgraphs indented below.
#pragma once

#include <string>

#include <asc/sdk/graph.hpp>

namespace asc::fusion {

std::string graph_to_text(const Graph& graph);

}  // namespace asc::fusion
