// Einsum, computed in double: two-operand contractions without diagonals or broadcasting become a
// batched GEMM ([batch, M, K] x [batch, K, N]); everything else (diagonals, broadcast ellipses,
// one or three-plus operands) runs a direct loop over every label combination.
#include <algorithm>
#include <string>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/gemm.hpp"
#include "common/shape_utils.hpp"
#include "linalg/einsum_equation.hpp"

namespace asc::ops {
namespace {

bool contains(const std::vector<int>& labels, int label) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

Shape shape_of(const std::vector<int>& labels, const std::vector<std::int64_t>& sizes) {
  Shape shape;
  for (const int label : labels) shape.push_back(sizes[static_cast<std::size_t>(label)]);
  return shape;
}

// Element strides of an operand per label of `loop_labels`: repeated labels add up (a diagonal),
// broadcast (size-1) dimensions and absent labels contribute 0.
Shape label_strides(const std::vector<int>& operand_labels, const Shape& operand_shape,
                    const std::vector<int>& loop_labels, const std::vector<std::int64_t>& sizes) {
  const Shape own = contiguous_strides(operand_shape);
  Shape strides(loop_labels.size(), 0);
  for (std::size_t d = 0; d < operand_labels.size(); ++d) {
    if (operand_shape[d] == 1 && sizes[static_cast<std::size_t>(operand_labels[d])] != 1) continue;
    const auto position = std::find(loop_labels.begin(), loop_labels.end(), operand_labels[d]) - loop_labels.begin();
    strides[static_cast<std::size_t>(position)] += own[d];
  }
  return strides;
}

struct Operand {
  std::vector<int> labels;
  Shape shape;
  std::vector<double> values;
};

std::vector<double> contract_directly(const std::vector<Operand>& operands, const std::vector<int>& output,
                                      const std::vector<std::int64_t>& sizes) {
  std::vector<int> loop_labels = output;
  for (const Operand& operand : operands)
    for (const int label : operand.labels)
      if (!contains(loop_labels, label)) loop_labels.push_back(label);
  const Shape loop_shape = shape_of(loop_labels, sizes);
  const Shape output_shape = shape_of(output, sizes);

  std::vector<Shape> strides;
  strides.push_back(label_strides(output, output_shape, loop_labels, sizes));
  for (const Operand& operand : operands)
    strides.push_back(label_strides(operand.labels, operand.shape, loop_labels, sizes));

  std::vector<double> result(static_cast<std::size_t>(num_elements(output_shape)), 0.0);
  for_each_index(loop_shape, strides, [&](const std::vector<std::int64_t>& offsets) {
    double product = 1.0;
    for (std::size_t i = 0; i < operands.size(); ++i) product *= operands[i].values[static_cast<std::size_t>(offsets[i + 1])];
    result[static_cast<std::size_t>(offsets[0])] += product;
  });
  return result;
}

// The operand's values laid out in `order` (a permutation of its labels).
std::vector<double> permute(const Operand& operand, const std::vector<int>& order, const std::vector<std::int64_t>& sizes) {
  if (order == operand.labels) return operand.values;
  std::vector<double> result;
  result.reserve(operand.values.size());
  for_each_index(shape_of(order, sizes), {label_strides(operand.labels, operand.shape, order, sizes)},
                 [&](const std::vector<std::int64_t>& offsets) {
                   result.push_back(operand.values[static_cast<std::size_t>(offsets[0])]);
                 });
  return result;
}

// Every label of `self` appears once in it, and is kept by the output or shared with `other`
// at the same size.
bool plain_for_gemm(const Operand& self, const Operand& other, const std::vector<int>& output) {
  for (std::size_t d = 0; d < self.labels.size(); ++d) {
    const int label = self.labels[d];
    if (std::count(self.labels.begin(), self.labels.end(), label) != 1) return false;
    const auto in_other = std::find(other.labels.begin(), other.labels.end(), label);
    if (in_other == other.labels.end()) {
      if (!contains(output, label)) return false;
    } else if (other.shape[static_cast<std::size_t>(in_other - other.labels.begin())] != self.shape[d]) {
      return false;
    }
  }
  return true;
}

std::vector<double> contract_by_gemm(const Operand& a, const Operand& b, const std::vector<int>& output,
                                     const std::vector<std::int64_t>& sizes) {
  std::vector<int> batch, rows, cols, inner;
  for (const int label : output) {
    if (contains(a.labels, label) && contains(b.labels, label)) batch.push_back(label);
    else if (contains(a.labels, label)) rows.push_back(label);
    else cols.push_back(label);
  }
  for (const int label : a.labels)
    if (contains(b.labels, label) && !contains(output, label)) inner.push_back(label);

  auto concat = [](std::vector<int> x, const std::vector<int>& y, const std::vector<int>& z) {
    x.insert(x.end(), y.begin(), y.end());
    x.insert(x.end(), z.begin(), z.end());
    return x;
  };
  auto product = [&](const std::vector<int>& labels) { return num_elements(shape_of(labels, sizes)); };
  const std::int64_t batches = product(batch), m = product(rows), n = product(cols), k = product(inner);

  const std::vector<double> lhs = permute(a, concat(batch, rows, inner), sizes);
  const std::vector<double> rhs = permute(b, concat(batch, inner, cols), sizes);
  Operand result{concat(batch, rows, cols), shape_of(concat(batch, rows, cols), sizes),
                 std::vector<double>(static_cast<std::size_t>(batches * m * n), 0.0)};
  for (std::int64_t i = 0; i < batches; ++i)
    gemm(false, false, m, n, k, 1.0, lhs.data() + i * m * k, k, rhs.data() + i * k * n, n, 0.0,
         result.values.data() + i * m * n, n);
  return permute(result, output, sizes);
}

// The best-known dim carrying `label`: a static size other than 1 wins, then a symbol, then an
// unknown dim, then 1 (which broadcasts against the others).
Dim label_dim(const InferenceContext& context, const EinsumLabels& labels, int label) {
  Dim best;
  bool have = false;
  for (std::size_t i = 0; i < labels.operands.size(); ++i) {
    const ValueInfo& info = context.input(i);
    if (!info.shape) continue;
    for (std::size_t d = 0; d < labels.operands[i].size(); ++d) {
      if (labels.operands[i][d] != label) continue;
      const Dim& dim = (*info.shape)[d];
      if (dim.is_static() && dim.value != 1) return dim;
      if (!have || best.is_static() || (best.symbol.empty() && !dim.symbol.empty())) best = dim;
      have = true;
    }
  }
  return best;
}

void einsum_infer(InferenceContext& context) {
  const std::size_t count = context.inputs.size();
  const EinsumEquation equation = parse_einsum(context.attrs().require_string("equation"), count, context.node);
  context.outputs[0].dtype = context.input(0).dtype;

  std::vector<std::int64_t> ranks;
  for (std::size_t i = 0; i < count; ++i) {
    const ValueInfo& info = context.input(i);
    const bool has_ellipsis = contains(equation.terms[i], kEllipsisLabel);
    if (!info.shape && has_ellipsis) {
      // Only the ellipsis width is unknown: the rank is still known if the output has none.
      if (!contains(equation.output, kEllipsisLabel))
        context.outputs[0].shape = std::vector<Dim>(equation.output.size());
      return;
    }
    ranks.push_back(info.shape ? static_cast<std::int64_t>(info.shape->size())
                               : static_cast<std::int64_t>(equation.terms[i].size()));
  }
  const EinsumLabels labels = resolve_einsum(equation, ranks, context.node);

  std::vector<Dim> out;
  for (const int label : labels.output) out.push_back(label_dim(context, labels, label));
  context.outputs[0].shape = out;
}

void einsum_compute(KernelContext& context) {
  const std::size_t count = context.input_count();
  const EinsumEquation equation = parse_einsum(context.attrs().require_string("equation"), count, context.node);
  const DType dtype = context.input(0).dtype();
  if (dtype == DType::Bool || dtype == DType::Undefined)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                context.node.describe() + ": Einsum does not support " + std::string(dtype_name(dtype)));

  std::vector<std::int64_t> ranks;
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < count; ++i) {
    const Tensor& input = context.input(i);
    if (input.dtype() != dtype)
      throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": all inputs must share one dtype");
    ranks.push_back(input.rank());
    shapes.push_back(input.shape());
  }
  const EinsumLabels labels = resolve_einsum(equation, ranks, context.node);
  const std::vector<std::int64_t> sizes = einsum_label_sizes(labels, shapes, context.node);

  std::vector<Operand> operands;
  for (std::size_t i = 0; i < count; ++i)
    operands.push_back({labels.operands[i], shapes[i], context.input(i).to_doubles()});

  const bool gemm_fits = operands.size() == 2 && plain_for_gemm(operands[0], operands[1], labels.output) &&
                         plain_for_gemm(operands[1], operands[0], labels.output);
  const std::vector<double> result = gemm_fits ? contract_by_gemm(operands[0], operands[1], labels.output, sizes)
                                               : contract_directly(operands, labels.output, sizes);
  context.outputs[0] = Tensor::from_vector(shape_of(labels.output, sizes), result).cast(dtype);
}

CostFacts einsum_cost(const CostContext& context) {
  const std::size_t count = context.inputs.size();
  CostFacts facts{0.0, input_bytes(context), output_bytes(context),
                  count >= 2 ? ComputeUnit::Cube : ComputeUnit::Vector};
  std::vector<std::int64_t> ranks;
  std::vector<Shape> shapes;
  for (const ValueInfo* info : context.inputs) {
    const auto shape = info != nullptr ? known_shape(*info) : std::nullopt;
    if (!shape) return facts;
    ranks.push_back(static_cast<std::int64_t>(shape->size()));
    shapes.push_back(*shape);
  }
  const EinsumEquation equation =
      parse_einsum(context.node.attributes.require_string("equation"), count, context.node);
  const EinsumLabels labels = resolve_einsum(equation, ranks, context.node);
  const std::vector<std::int64_t> sizes = einsum_label_sizes(labels, shapes, context.node);
  // One multiply per extra operand and one add per point of the full label space.
  std::vector<bool> used(sizes.size(), false);
  double points = 1.0;
  for (const auto& operand : labels.operands)
    for (const int label : operand)
      if (!used[static_cast<std::size_t>(label)]) {
        used[static_cast<std::size_t>(label)] = true;
        points *= static_cast<double>(sizes[static_cast<std::size_t>(label)]);
      }
  facts.flops = points * static_cast<double>(count);
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "Einsum", 12, 17, einsum_infer, einsum_compute, einsum_cost);

}  // namespace asc::ops
