// Nodes already taken by a match in the current sweep: a node joins at most one rewrite.
#pragma once

#include <unordered_set>
#include <vector>

#include <asc/sdk/graph.hpp>

namespace asc::fusion {

class Claims {
 public:
  bool taken(const Node* node) const { return nodes_.count(node) != 0; }
  // Takes every node of `group` if none is taken yet; false (taking nothing) otherwise.
  bool take(const std::vector<Node*>& group) {
    for (const Node* node : group)
      if (taken(node)) return false;
    nodes_.insert(group.begin(), group.end());
    return true;
  }

 private:
  std::unordered_set<const Node*> nodes_;
};

}  // namespace asc::fusion
