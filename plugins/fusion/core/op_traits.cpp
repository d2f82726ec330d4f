#include "core/op_traits.hpp"

#include <memory>
#include <set>
#include <string>
#include <variant>

#include "core/graph_edits.hpp"

namespace asc::fusion {

bool is_default_domain(const Node& node) { return node.domain.empty() || node.domain == "ai.onnx"; }

bool is_op(const Node* node, const char* op_type) {
  return node != nullptr && node->op_type == op_type && is_default_domain(*node);
}

bool is_nondeterministic(const Node& node) {
  static const std::set<std::string> random_ops{"RandomNormal",     "RandomUniform", "RandomNormalLike",
                                                "RandomUniformLike", "Multinomial",   "Bernoulli", "Dropout"};
  return is_default_domain(node) && random_ops.count(node.op_type) != 0;
}

bool has_subgraph(const Node& node) {
  for (const auto& [name, value] : node.attributes.all())
    if (std::holds_alternative<std::shared_ptr<Graph>>(value) ||
        std::holds_alternative<std::vector<std::shared_ptr<Graph>>>(value))
      return true;
  return false;
}

bool is_elementwise(const Node& node) {
  static const std::set<std::string> default_domain{
      "Abs",      "Acos",    "Acosh",     "Add",         "Asin",        "Asinh",   "Atan",     "Atanh",
      "Ceil",     "Celu",    "Clip",      "Cos",         "Cosh",        "Div",     "Elu",      "Erf",
      "Exp",      "Floor",   "HardSigmoid", "HardSwish", "LeakyRelu",   "Log",     "Max",      "Mean",
      "Min",      "Mul",     "Neg",       "Pow",         "PRelu",       "Reciprocal", "Relu",  "Round",
      "Selu",     "Shrink",  "Sigmoid",   "Sign",        "Sin",         "Sinh",    "Softplus", "Softsign",
      "Sqrt",     "Sub",     "Sum",       "Tan",         "Tanh",        "ThresholdedRelu"};
  if (is_default_domain(node)) return default_domain.count(node.op_type) != 0;
  return node.domain == kFusionDomain && node.op_type == "Gelu";
}

bool is_reshape_like(const Node& node) {
  return is_default_domain(node) && (node.op_type == "Reshape" || node.op_type == "Flatten" ||
                                     node.op_type == "Squeeze" || node.op_type == "Unsqueeze");
}

}  // namespace asc::fusion
