// Graph passes (clean-ups and fusions). A pass is named, belongs to a category that fusion
// switch files address ("GraphFusion" or "UBFusion" as in ATC, or "Cleanup"), and reports how
// often its pattern matched and how often it rewrote the graph (ATC's fusion_result.json).
#pragma once

#include <string>

#include "asc/sdk/graph.hpp"
#include "asc/sdk/op_registry.hpp"

namespace asc {

struct PassResult {
  int match_times = 0;
  int effect_times = 0;
};

struct PassContext {
  const OpRegistry& ops;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string name() const = 0;
  virtual std::string category() const = 0;
  virtual std::string description() const = 0;
  // Rewrites `graph` in place. Every replacement must go through Graph::replace_nodes (or keep
  // provenance by hand) and leave the graph's reference result unchanged.
  virtual PassResult run(Graph& graph, const PassContext& context) const = 0;
};

}  // namespace asc
