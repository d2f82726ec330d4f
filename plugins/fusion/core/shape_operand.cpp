#include "core/shape_operand.hpp"

#include <algorithm>

#include "core/constant_values.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"

namespace asc::fusion {
namespace {

bool known(const Dim& d) { return d.is_static() || !d.symbol.empty(); }

class ShapeOperandReader {
 public:
  ShapeOperandReader(const Graph& graph, const ValueUses& uses) : graph_(graph), uses_(uses) {}

  // Entries of a 1-D shape operand; literal 0 and -1 stay as Dim(0) / Dim(-1) values.
  std::optional<std::vector<Dim>> entries(const std::string& value) const {
    if (const auto constant = constant_value(graph_, uses_, value)) {
      if (constant->rank() > 1 || !is_integral(constant->dtype())) return std::nullopt;
      const auto values = constant->to_int64s();
      return std::vector<Dim>(values.begin(), values.end());
    }
    const Node* node = uses_.producer(value);
    if (is_op(node, "Concat")) {
      std::vector<Dim> all;
      for (const auto& input : node->inputs) {
        const auto part = entries(input);
        if (!part) return std::nullopt;
        all.insert(all.end(), part->begin(), part->end());
      }
      return all;
    }
    if (is_op(node, "Unsqueeze") || is_op(node, "Cast") || is_op(node, "Identity")) {
      if (const auto dim = scalar(node->inputs.at(0))) return std::vector<Dim>{*dim};
      return is_op(node, "Unsqueeze") ? std::nullopt : entries(node->inputs.at(0));
    }
    return std::nullopt;
  }

 private:
  // A scalar (or one-element) integer value as a dim.
  std::optional<Dim> scalar(const std::string& value) const {
    if (const auto constant = scalar_constant(graph_, uses_, value)) return Dim(static_cast<std::int64_t>(*constant));
    const Node* node = uses_.producer(value);
    if (is_op(node, "Cast") || is_op(node, "Squeeze") || is_op(node, "Unsqueeze") || is_op(node, "Identity"))
      return scalar(node->inputs.at(0));
    if (is_op(node, "Gather")) {
      const Node* shape = uses_.producer(node->inputs.at(0));
      const auto index = scalar_constant(graph_, uses_, node->inputs.at(1));
      if (!is_op(shape, "Shape") || !index || shape->attributes.has("start")) return std::nullopt;
      const auto dims = value_dims(graph_, shape->inputs.at(0));
      if (!dims) return std::nullopt;
      auto i = static_cast<std::int64_t>(*index);
      if (i < 0) i += static_cast<std::int64_t>(dims->size());
      if (i < 0 || i >= static_cast<std::int64_t>(dims->size()) || !known((*dims)[static_cast<std::size_t>(i)]))
        return std::nullopt;
      return (*dims)[static_cast<std::size_t>(i)];
    }
    if (is_op(node, "Div") || is_op(node, "Mul")) {
      const auto a = scalar(node->inputs.at(0));
      const auto b = scalar(node->inputs.at(1));
      if (!a || !b || !a->is_static() || !b->is_static() || (is_op(node, "Div") && b->value == 0)) return std::nullopt;
      return Dim(is_op(node, "Div") ? a->value / b->value : a->value * b->value);
    }
    return std::nullopt;
  }

  const Graph& graph_;
  const ValueUses& uses_;
};

}  // namespace

std::optional<std::vector<Dim>> reshape_result_dims(const Graph& graph, const ValueUses& uses, const Node& reshape) {
  const auto own = value_dims(graph, reshape.outputs.at(0));
  if (own && std::all_of(own->begin(), own->end(), known)) return own;
  if (reshape.inputs.size() < 2 || reshape.attributes.get_int("allowzero", 0) != 0) return std::nullopt;
  auto dims = ShapeOperandReader(graph, uses).entries(reshape.inputs[1]);
  const auto input = value_dims(graph, reshape.inputs[0]);
  if (!dims) return std::nullopt;
  std::optional<std::size_t> inferred;
  for (std::size_t i = 0; i < dims->size(); ++i) {
    Dim& d = (*dims)[i];
    if (d.is_static() && d.value == 0) {
      if (!input || i >= input->size() || !known((*input)[i])) return std::nullopt;
      d = (*input)[i];
    } else if (!known(d)) {
      if (inferred) return std::nullopt;
      inferred = i;
    }
  }
  if (inferred) {
    std::int64_t total = 1;
    for (const Dim& d : input.value_or(std::vector<Dim>{Dim()})) {
      if (!d.is_static()) return std::nullopt;
      total *= d.value;
    }
    std::int64_t rest = 1;
    for (std::size_t i = 0; i < dims->size(); ++i) {
      if (i == *inferred) continue;
      if (!(*dims)[i].is_static()) return std::nullopt;
      rest *= (*dims)[i].value;
    }
    if (rest == 0) return std::nullopt;
    (*dims)[*inferred] = Dim(total / rest);
  }
  return dims;
}

}  // namespace asc::fusion
