// Einsum: two-operand contractions without diagonals or broadcasting become a batched GEMM
// ([batch, M, K] x [batch, K, N]), in float32 on the kernel's threads for float32 operands (as
// MatMul computes) and in double otherwise; everything else (diagonals, broadcast ellipses, one or
// three-plus operands) runs a direct loop over every label combination, in double.
#include <algorithm>
#include <string>

#include <asc/sdk/error.hpp>
#include <asc/sdk/parallel.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/gemm.hpp"
#include "common/shape_utils.hpp"
#include "linalg/einsum_equation.hpp"
#include "tensor/strided_view.hpp"

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

// The labels of a GEMM-shaped contraction, grouped: batch (in both operands and the output),
// rows (a and the output), columns (b and the output), inner (summed over).
struct GemmLabels {
  std::vector<int> batch, rows, cols, inner;
};

GemmLabels gemm_labels(const std::vector<int>& a, const std::vector<int>& b, const std::vector<int>& output) {
  GemmLabels labels;
  for (const int label : output) {
    if (contains(a, label) && contains(b, label)) labels.batch.push_back(label);
    else if (contains(a, label)) labels.rows.push_back(label);
    else labels.cols.push_back(label);
  }
  for (const int label : a)
    if (contains(b, label) && !contains(output, label)) labels.inner.push_back(label);
  return labels;
}

std::vector<int> joined(std::vector<int> x, const std::vector<int>& y, const std::vector<int>& z) {
  x.insert(x.end(), y.begin(), y.end());
  x.insert(x.end(), z.begin(), z.end());
  return x;
}

// `tensor` (dims labelled `labels`, each label once) with its dims reordered to `order`, as a
// contiguous tensor (no copy when the order is already the tensor's).
Tensor reordered(const Tensor& tensor, const std::vector<int>& labels, const std::vector<int>& order,
                 const std::vector<std::int64_t>& sizes) {
  if (order == labels) return tensor;
  return copy_strided(tensor, 0, shape_of(order, sizes), label_strides(labels, tensor.shape(), order, sizes));
}

// The float32 contraction as batched GEMMs on the kernel's threads: whole products per thread when
// there are enough of them, else each product split between the threads.
Tensor contract_by_gemm_f32(const Tensor& a, const std::vector<int>& a_labels, const Tensor& b,
                            const std::vector<int>& b_labels, const std::vector<int>& output,
                            const std::vector<std::int64_t>& sizes, int threads) {
  const GemmLabels g = gemm_labels(a_labels, b_labels, output);
  auto product = [&](const std::vector<int>& labels) { return num_elements(shape_of(labels, sizes)); };
  const std::int64_t batches = product(g.batch), m = product(g.rows), n = product(g.cols), k = product(g.inner);
  const Tensor lhs = reordered(a.contiguous(), a_labels, joined(g.batch, g.rows, g.inner), sizes);
  const Tensor rhs = reordered(b.contiguous(), b_labels, joined(g.batch, g.inner, g.cols), sizes);
  const std::vector<int> result_labels = joined(g.batch, g.rows, g.cols);
  Tensor result(DType::Float32, shape_of(result_labels, sizes));  // zeros: k may be 0
  const float* x = lhs.data<float>();
  const float* y = rhs.data<float>();
  float* z = result.data<float>();
  auto multiply = [&](std::int64_t i, int product_threads) {
    parallel_gemm(product_threads, false, false, m, n, k, 1.0f, x + i * m * k, k, y + i * k * n, n, 0.0f,
                  z + i * m * n, n);
  };
  if (threads > 1 && batches >= 2 * threads) {
    parallel_for(threads, batches, [&](std::int64_t i) { multiply(i, 1); });
  } else {
    for (std::int64_t i = 0; i < batches; ++i) multiply(i, threads);
  }
  return reordered(result, result_labels, output, sizes);
}

std::vector<double> contract_by_gemm(const Operand& a, const Operand& b, const std::vector<int>& output,
                                     const std::vector<std::int64_t>& sizes) {
  const GemmLabels g = gemm_labels(a.labels, b.labels, output);
  auto product = [&](const std::vector<int>& labels) { return num_elements(shape_of(labels, sizes)); };
  const std::int64_t batches = product(g.batch), m = product(g.rows), n = product(g.cols), k = product(g.inner);

  const std::vector<double> lhs = permute(a, joined(g.batch, g.rows, g.inner), sizes);
  const std::vector<double> rhs = permute(b, joined(g.batch, g.inner, g.cols), sizes);
  Operand result{joined(g.batch, g.rows, g.cols), shape_of(joined(g.batch, g.rows, g.cols), sizes),
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

  // Whether the two operands contract as a batched GEMM (labels and shapes are all it looks at).
  auto fits_gemm = [&] {
    if (count != 2) return false;
    const Operand a{labels.operands[0], shapes[0], {}}, b{labels.operands[1], shapes[1], {}};
    return plain_for_gemm(a, b, labels.output) && plain_for_gemm(b, a, labels.output);
  };
  const bool gemm_fits = fits_gemm();
  if (gemm_fits && dtype == DType::Float32) {
    context.outputs[0] = contract_by_gemm_f32(context.input(0), labels.operands[0], context.input(1),
                                              labels.operands[1], labels.output, sizes, context.threads);
    return;
  }
  std::vector<Operand> operands;
  for (std::size_t i = 0; i < count; ++i)
    operands.push_back({labels.operands[i], shapes[i], context.input(i).to_doubles()});

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
