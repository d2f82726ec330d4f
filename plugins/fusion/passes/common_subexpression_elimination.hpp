#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Merges nodes that compute the same thing: same domain, op type, attributes and input values.
// The later node's readers read the earlier node's outputs; the earlier node takes on the
// later one's provenance. Random generators and nodes with subgraphs are left alone.
class CommonSubexpressionElimination : public Pass {
 public:
  std::string name() const override { return "CommonSubexpressionElimination"; }
  std::string category() const override { return "Cleanup"; }
  std::string description() const override {
    return "merges nodes with the same operator, attributes and inputs";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
