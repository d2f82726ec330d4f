#include "passes/shape_inference.hpp"

#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/shape_operand.hpp"
#include "core/type_refinement.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {

PassResult ShapeInference::run(Graph& graph, const PassContext& context) const {
  PassResult result;
  const ValueUses uses(graph);
  for (const Node* node : graph.nodes()) {
    bool improved = refine_output_types(graph, *node, context.ops);
    if (is_op(node, "Reshape")) {
      if (const auto dims = reshape_result_dims(graph, uses, *node)) {
        const std::string& output = node->outputs.at(0);
        auto [it, inserted] = graph.values.try_emplace(output, ValueInfo{output, value_dtype(graph, node->inputs.at(0)), std::nullopt});
        improved = merge_value_info(it->second, ValueInfo{output, it->second.dtype, dims}) || improved || inserted;
      }
    }
    if (improved) {
      ++result.match_times;
      ++result.effect_times;
    }
  }
  return result;
}

}  // namespace asc::fusion
