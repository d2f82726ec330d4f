#include "stage/kernel_count.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "core/op_traits.hpp"

namespace asc::fusion {

bool launches_kernel(const Node& node) {
  static const std::set<std::string> no_kernel{"Constant", "Identity", "Dropout", "Reshape", "Flatten",
                                                "Squeeze",  "Unsqueeze", "Shape", "Size"};
  return !(is_default_domain(node) && no_kernel.count(node.op_type) != 0);
}

std::size_t count_kernels(const Graph& graph) {
  return static_cast<std::size_t>(
      std::count_if(graph.nodes().begin(), graph.nodes().end(), [](const Node* node) { return launches_kernel(*node); }));
}

}  // namespace asc::fusion
