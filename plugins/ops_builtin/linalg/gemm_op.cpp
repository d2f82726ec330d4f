// Gemm: Y = alpha * op(A) * op(B) + beta * C, with C optional (from opset 11) and broadcast
// unidirectionally to [M, N].
#include <algorithm>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/gemm.hpp"
#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

struct GemmShape {
  std::int64_t m, n, k;
};

GemmShape gemm_shape(const Shape& a, const Shape& b, bool trans_a, bool trans_b, const Node& node) {
  if (a.size() != 2 || b.size() != 2)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": A and B must be 2-D, got " + shape_to_string(a) +
                                                " and " + shape_to_string(b));
  const GemmShape shape{trans_a ? a[1] : a[0], trans_b ? b[0] : b[1], trans_a ? a[0] : a[1]};
  if ((trans_b ? b[1] : b[0]) != shape.k)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": inner dimensions differ: " + shape_to_string(a) +
                                                (trans_a ? "^T" : "") + " x " + shape_to_string(b) + (trans_b ? "^T" : ""));
  return shape;
}

// beta * C broadcast into `out` ([M, N], row-major); zeros when C is absent.
template <class T>
void fill_bias(const Tensor* c, T beta, T* out, const GemmShape& shape, const Node& node) {
  if (c == nullptr) return;
  const Shape target{shape.m, shape.n};
  const Shape& c_shape = c->shape();
  bool fits = c_shape.size() <= 2;
  for (std::size_t i = 0; i < c_shape.size() && fits; ++i)
    fits = c_shape[i] == 1 || c_shape[i] == target[target.size() - c_shape.size() + i];
  if (!fits)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": C of shape " + shape_to_string(c_shape) +
                                                " does not broadcast to " + shape_to_string(target));
  // C as [rows, columns], each 1 (broadcast) or the target's.
  const std::int64_t columns = c_shape.empty() ? 1 : c_shape.back();
  const std::int64_t rows = c_shape.size() == 2 ? c_shape[0] : 1;
  const T* values = c->data<T>();
  for (std::int64_t r = 0; r < shape.m; ++r) {
    const T* row = values + (rows == 1 ? 0 : r * columns);
    T* out_row = out + r * shape.n;
    if (columns == 1)
      std::fill(out_row, out_row + shape.n, beta * row[0]);
    else
      for (std::int64_t j = 0; j < shape.n; ++j) out_row[j] = beta * row[j];
  }
}

template <class T>
void gemm_integer_loops(bool trans_a, bool trans_b, const GemmShape& s, T alpha, const T* a, const T* b, T* y) {
  for (std::int64_t r = 0; r < s.m; ++r)
    for (std::int64_t col = 0; col < s.n; ++col) {
      std::uint64_t sum = 0;
      for (std::int64_t j = 0; j < s.k; ++j) {
        const T av = trans_a ? a[j * s.m + r] : a[r * s.k + j];
        const T bv = trans_b ? b[col * s.k + j] : b[j * s.n + col];
        sum += static_cast<std::uint64_t>(av) * static_cast<std::uint64_t>(bv);
      }
      y[r * s.n + col] = static_cast<T>(static_cast<std::uint64_t>(alpha) * sum + static_cast<std::uint64_t>(y[r * s.n + col]));
    }
}

Tensor run_gemm(const Tensor& a, const Tensor& b, const Tensor* c, bool trans_a, bool trans_b, double alpha,
                double beta, const Node& node, int threads) {
  const GemmShape s = gemm_shape(a.shape(), b.shape(), trans_a, trans_b, node);
  const DType dtype = a.dtype();
  if (dtype == DType::Float16 || dtype == DType::BFloat16) {
    const Tensor c32 = c != nullptr ? c->cast(DType::Float32) : Tensor();
    return run_gemm(a.cast(DType::Float32), b.cast(DType::Float32), c != nullptr ? &c32 : nullptr, trans_a, trans_b,
                    alpha, beta, node, threads)
        .cast(dtype);
  }
  Tensor y(dtype, {s.m, s.n});
  const bool supported = dtype == DType::Float32 || dtype == DType::Float64 || dtype == DType::Int32 ||
                         dtype == DType::Int64 || dtype == DType::UInt32 || dtype == DType::UInt64;
  if (!supported)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": Gemm does not support " + std::string(dtype_name(dtype)));
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      fill_bias(c, static_cast<T>(beta), y.data<T>(), s, node);
      parallel_gemm(threads, trans_a, trans_b, s.m, s.n, s.k, static_cast<T>(alpha), a.data<T>(), trans_a ? s.m : s.k,
                    b.data<T>(), trans_b ? s.k : s.n, T(1), y.data<T>(), s.n);
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      fill_bias(c, static_cast<T>(beta), y.data<T>(), s, node);
      gemm_integer_loops(trans_a, trans_b, s, static_cast<T>(alpha), a.data<T>(), b.data<T>(), y.data<T>());
    }
  });
  return y;
}

void gemm_op_infer(InferenceContext& context) {
  const ValueInfo& a = context.input(0);
  const ValueInfo& b = context.input(1);
  context.outputs[0].dtype = a.dtype;
  const bool trans_a = context.attrs().get_int("transA", 0) != 0;
  const bool trans_b = context.attrs().get_int("transB", 0) != 0;
  std::vector<Dim> out{Dim(), Dim()};
  if (a.shape) {
    if (a.shape->size() != 2) throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": A must be 2-D");
    out[0] = (*a.shape)[trans_a ? 1 : 0];
  }
  if (b.shape) {
    if (b.shape->size() != 2) throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": B must be 2-D");
    out[1] = (*b.shape)[trans_b ? 0 : 1];
  }
  context.outputs[0].shape = out;
}

void gemm_op_compute(KernelContext& context) {
  const Tensor& a = context.input(0);
  const Tensor& b = context.input(1);
  const Tensor* c = context.has_input(2) ? context.inputs[2] : nullptr;
  if (b.dtype() != a.dtype() || (c != nullptr && c->dtype() != a.dtype()))
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": A, B and C must share one dtype");
  const auto& attrs = context.attrs();
  context.outputs[0] = run_gemm(a, b, c, attrs.get_int("transA", 0) != 0, attrs.get_int("transB", 0) != 0,
                                attrs.get_float("alpha", 1.0f), attrs.get_float("beta", 1.0f), context.node,
                                context.threads);
}

CostFacts gemm_op_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Cube};
  if (context.inputs.size() < 2 || context.inputs[0] == nullptr || context.outputs.empty() ||
      context.outputs[0] == nullptr)
    return facts;
  const auto a = known_shape(*context.inputs[0]);
  const auto y = known_shape(*context.outputs[0]);
  if (!a || !y || a->size() != 2 || y->size() != 2) return facts;
  const bool trans_a = context.node.attributes.get_int("transA", 0) != 0;
  const double k = static_cast<double>(trans_a ? (*a)[0] : (*a)[1]);
  facts.flops = 2.0 * static_cast<double>((*y)[0]) * static_cast<double>((*y)[1]) * k;
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "Gemm", 11, 17, gemm_op_infer, gemm_op_compute, gemm_op_cost);

}  // namespace asc::ops
