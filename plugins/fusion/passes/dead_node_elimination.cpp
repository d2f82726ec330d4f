#include "passes/dead_node_elimination.hpp"

namespace asc::fusion {

PassResult DeadNodeElimination::run(Graph& graph, const PassContext&) const {
  const auto removed = static_cast<int>(graph.remove_dead_nodes());
  return {removed, removed};
}

}  // namespace asc::fusion
