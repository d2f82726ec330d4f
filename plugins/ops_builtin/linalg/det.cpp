// Det: determinant of each trailing [M, M] matrix, by LU decomposition with partial pivoting in
// double precision.
#include <cmath>
#include <string>
#include <utility>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

double determinant(std::vector<double> a, std::int64_t n) {
  double det = 1.0;
  for (std::int64_t col = 0; col < n; ++col) {
    std::int64_t pivot = col;
    for (std::int64_t r = col + 1; r < n; ++r)
      if (std::abs(a[r * n + col]) > std::abs(a[pivot * n + col])) pivot = r;
    if (a[pivot * n + col] == 0.0) return 0.0;
    if (pivot != col) {
      for (std::int64_t c = 0; c < n; ++c) std::swap(a[col * n + c], a[pivot * n + c]);
      det = -det;
    }
    const double diagonal = a[col * n + col];
    det *= diagonal;
    for (std::int64_t r = col + 1; r < n; ++r) {
      const double factor = a[r * n + col] / diagonal;
      for (std::int64_t c = col + 1; c < n; ++c) a[r * n + c] -= factor * a[col * n + c];
    }
  }
  return det;
}

void check_square(const std::vector<Dim>& dims, const Node& node) {
  if (dims.size() < 2) throw Error(ErrorCode::InvalidOperator, node.describe() + ": input must have rank >= 2");
  const Dim& rows = dims[dims.size() - 2];
  const Dim& cols = dims.back();
  if (rows.is_static() && cols.is_static() && rows.value != cols.value)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": the trailing matrices are not square");
}

void det_infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  context.outputs[0].dtype = x.dtype;
  if (!x.shape) return;
  check_square(*x.shape, context.node);
  context.outputs[0].shape = std::vector<Dim>(x.shape->begin(), x.shape->end() - 2);
}

void det_compute(KernelContext& context) {
  const Tensor& x = context.input(0);
  if (!is_floating(x.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                context.node.describe() + ": Det does not support " + std::string(dtype_name(x.dtype())));
  check_square(to_dims(x.shape()), context.node);
  const std::int64_t n = x.shape().back();
  const Shape batch(x.shape().begin(), x.shape().end() - 2);
  const std::vector<double> values = x.to_doubles();
  std::vector<double> result;
  const std::int64_t matrices = num_elements(batch);
  for (std::int64_t i = 0; i < matrices; ++i)
    result.push_back(determinant({values.begin() + i * n * n, values.begin() + (i + 1) * n * n}, n));
  context.outputs[0] = Tensor::from_vector(batch, result).cast(x.dtype());
}

CostFacts det_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Vector};
  if (context.inputs.empty() || context.inputs[0] == nullptr) return facts;
  const auto shape = known_shape(*context.inputs[0]);
  if (!shape || shape->size() < 2) return facts;
  // LU factorisation: about 2/3 n^3 flops per matrix.
  const double n = static_cast<double>(shape->back());
  facts.flops = 2.0 / 3.0 * n * n * n * static_cast<double>(num_elements(*shape)) / (n * n > 0 ? n * n : 1.0);
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "Det", 11, 17, det_infer, det_compute, det_cost);

}  // namespace asc::ops
