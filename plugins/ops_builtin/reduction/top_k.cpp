// TopK: the k largest (or smallest) elements along an axis and their int64 indices. Equal values
// keep the lower index first, as ONNX specifies; the output is always sorted.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "common/reduction_cost.hpp"
#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

std::int64_t k_of(const Tensor& k, const Node& node) {
  if (k.numel() != 1 || !is_integral(k.dtype()))
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": K must hold a single integer, got " +
                                                std::string(dtype_name(k.dtype())) + shape_to_string(k.shape()));
  const std::int64_t value = k.to_int64s()[0];
  if (value < 0) throw Error(ErrorCode::InvalidOperator, node.describe() + ": K is negative (" + std::to_string(value) + ")");
  return value;
}

void top_k_infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  context.outputs[0].dtype = x.dtype;
  context.outputs[1].dtype = DType::Int64;
  if (!x.shape) return;
  const std::int64_t axis =
      normalize_axis(context.attrs().get_int("axis", -1), static_cast<std::int64_t>(x.shape->size()), context.node);
  std::vector<Dim> out = *x.shape;
  const Tensor* k = context.input_value(1);
  out[static_cast<std::size_t>(axis)] = k != nullptr ? Dim(k_of(*k, context.node)) : Dim();
  context.outputs[0].shape = out;
  context.outputs[1].shape = out;
}

// NaN counts as the greatest value (numpy's sort order).
template <class T> bool ranks_before(T a, T b, bool largest) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool a_nan = std::isnan(a);
    const bool b_nan = std::isnan(b);
    if (a_nan || b_nan) return largest ? a_nan && !b_nan : b_nan && !a_nan;
  }
  return largest ? a > b : a < b;
}

void top_k_compute(KernelContext& context) {
  const Tensor& x = context.input(0);
  const Node& node = context.node;
  if (x.rank() == 0) throw Error(ErrorCode::InvalidOperator, node.describe() + ": input must have rank >= 1");
  const std::int64_t axis = normalize_axis(context.attrs().get_int("axis", -1), x.rank(), node);
  const bool largest = context.attrs().get_int("largest", 1) != 0;
  const Shape& shape = x.shape();
  const std::int64_t length = shape[static_cast<std::size_t>(axis)];
  const std::int64_t k = k_of(context.input(1), node);
  if (k > length)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": K = " + std::to_string(k) + " exceeds the axis length " +
                                                std::to_string(length));
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<std::size_t>(d)];
  for (std::int64_t d = axis + 1; d < x.rank(); ++d) inner *= shape[static_cast<std::size_t>(d)];

  Shape out_shape = shape;
  out_shape[static_cast<std::size_t>(axis)] = k;
  Tensor values(x.dtype(), out_shape);
  Tensor indices(DType::Int64, out_shape);
  std::int64_t* index_out = indices.data<std::int64_t>();

  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // 16-bit floats compare as float.
    using Key = std::conditional_t<std::is_integral_v<T>, T, std::conditional_t<std::is_same_v<T, double>, double, float>>;
    const T* in = x.data<T>();
    T* value_out = values.data<T>();
    std::vector<std::int64_t> order(static_cast<std::size_t>(length));
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        const T* base = in + o * length * inner + i;
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](std::int64_t a, std::int64_t b) {
          const Key va = static_cast<Key>(base[a * inner]);
          const Key vb = static_cast<Key>(base[b * inner]);
          if (ranks_before(va, vb, largest)) return true;
          if (ranks_before(vb, va, largest)) return false;
          return a < b;
        });
        for (std::int64_t j = 0; j < k; ++j) {
          const std::int64_t at = (o * k + j) * inner + i;
          index_out[at] = order[static_cast<std::size_t>(j)];
          value_out[at] = base[order[static_cast<std::size_t>(j)] * inner];
        }
      }
  });
  context.outputs[0] = values;
  context.outputs[1] = indices;
}

// About log2(length) comparisons per element; control-heavy, so the scalar unit.
CostFacts top_k_cost(const CostContext& context) {
  double length = 1.0;
  if (!context.inputs.empty() && context.inputs[0] != nullptr && context.inputs[0]->has_static_shape()) {
    const Shape shape = context.inputs[0]->static_shape();
    if (!shape.empty())
      length = static_cast<double>(shape[static_cast<std::size_t>(
          normalize_axis(context.node.attributes.get_int("axis", -1), static_cast<std::int64_t>(shape.size()), context.node))]);
  }
  return per_input_element_cost(context, std::max(1.0, std::log2(std::max(length, 1.0))), ComputeUnit::Scalar);
}

}  // namespace

ASC_REGISTER_OP("", "TopK", 11, 17, top_k_infer, top_k_compute, top_k_cost);

}  // namespace asc::ops
