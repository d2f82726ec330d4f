// asc::Graph <-> om.Graph: value infos with symbolic dims, initializers, metadata, nodes with
// every attribute kind (subgraphs recursively) and provenance.
#pragma once

#include <asc/sdk/graph.hpp>
#include <map>
#include <string>

#include "om/om.pb.h"

namespace asc::npusim {

// `stored_dtypes` gives the dtype an initializer is stored at (weight_storage.hpp); initializers
// it does not list, and every tensor in attributes and subgraphs, keep their own dtype.
om::Graph encode_graph(const Graph& graph, const std::map<std::string, DType>& stored_dtypes = {});

// Throws EE4004 naming `origin` and the graph, node or attribute that is malformed. Does not
// check that values are defined before use (om_model_check.hpp does).
Graph decode_graph(const om::Graph& proto, const std::string& origin);
// The same, emptying each initializer's bytes in `proto` once decoded, so that a large model's
// weights are never held twice (message and host tensors) while it loads.
Graph decode_graph_consuming_weights(om::Graph& proto, const std::string& origin);

}  // namespace asc::npusim
