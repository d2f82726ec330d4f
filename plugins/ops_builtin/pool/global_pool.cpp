// GlobalAveragePool, GlobalMaxPool and GlobalLpPool (opset 11-17): one value per (N, C) plane,
// spatial axes kept as size 1.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/nn_compute_dtype.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void fail_rank(const Node& node, std::size_t rank) {
  throw Error(ErrorCode::InvalidOperator,
              node.describe() + ": X has rank " + std::to_string(rank) + ", expected N, C and spatial axes");
}

void global_pool_infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  ValueInfo& y = context.outputs[0];
  y.dtype = x.dtype;
  if (!x.shape) {
    y.shape = std::nullopt;
    return;
  }
  if (x.shape->size() < 2) fail_rank(context.node, x.shape->size());
  std::vector<Dim> dims(x.shape->size(), Dim(1));
  dims[0] = (*x.shape)[0];
  dims[1] = (*x.shape)[1];
  y.shape = std::move(dims);
}

// Reads every input element once: one operation each.
CostFacts global_pool_cost(const CostContext& context) {
  CostFacts facts = data_movement_cost(context);
  facts.flops = static_cast<double>(value_elements(context.inputs.empty() ? nullptr : context.inputs[0]));
  return facts;
}

// Runs reduce(plane, count, step) -> double over every (N, C) plane of input 0: `count` elements
// `step` apart (1 for a contiguous input, C for a channels-last one, read as it is).
template <class Reduce>
void global_pool(KernelContext& context, const char* op, Reduce&& reduce) {
  const Node& node = context.node;
  const Tensor& x_in = context.input(0);
  if (x_in.rank() < 2) fail_rank(node, static_cast<std::size_t>(x_in.rank()));
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  const Tensor converted = to_nn_compute_dtype(x_in);
  const bool channels_last = converted.rank() >= 3 && converted.is_channels_last();
  const Tensor x = channels_last ? converted : converted.contiguous();
  Shape y_shape(x.shape().size(), 1);
  y_shape[0] = x.shape()[0];
  y_shape[1] = x.shape()[1];
  const std::int64_t planes = y_shape[0] * y_shape[1];
  const std::int64_t plane_size = planes == 0 ? 0 : x.numel() / planes;
  Tensor y(compute_dtype, y_shape);
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* in = x.data<T>();
      T* out = y.data<T>();
      const std::int64_t channels = y_shape[1];
      for (std::int64_t p = 0; p < planes; ++p) {
        const std::int64_t n = p / channels, c = p % channels;
        out[p] = channels_last ? static_cast<T>(reduce(in + n * plane_size * channels + c, plane_size, channels))
                               : static_cast<T>(reduce(in + p * plane_size, plane_size, 1));
      }
    } else {
      throw Error(ErrorCode::OperatorDtypeUnsupported,
                  node.describe() + ": " + op + " supports float16, bfloat16, float32 and float64, not " +
                      std::string(dtype_name(dtype)));
    }
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

void compute_average(KernelContext& context) {
  global_pool(context, "GlobalAveragePool", [](const auto* in, std::int64_t count, std::int64_t step) {
    double sum = 0.0;
    for (std::int64_t i = 0; i < count; ++i) sum += static_cast<double>(in[i * step]);
    return count == 0 ? 0.0 : sum / static_cast<double>(count);
  });
}

void compute_max(KernelContext& context) {
  global_pool(context, "GlobalMaxPool", [](const auto* in, std::int64_t count, std::int64_t step) {
    double best = -std::numeric_limits<double>::infinity();
    for (std::int64_t i = 0; i < count; ++i) best = std::max(best, static_cast<double>(in[i * step]));
    return best;
  });
}

void compute_lp(KernelContext& context) {
  const std::int64_t p = context.node.attributes.get_int("p", 2);
  if (p < 1)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": attribute 'p' must be >= 1");
  const double power = static_cast<double>(p);
  global_pool(context, "GlobalLpPool", [power](const auto* in, std::int64_t count, std::int64_t step) {
    double sum = 0.0;
    for (std::int64_t i = 0; i < count; ++i) sum += std::pow(std::abs(static_cast<double>(in[i * step])), power);
    return std::pow(sum, 1.0 / power);
  });
}

}  // namespace

ASC_REGISTER_OP_CHANNELS_LAST("", "GlobalAveragePool", 11, 17, global_pool_infer, compute_average, global_pool_cost,
                              kChannelsLastInput0);
ASC_REGISTER_OP_CHANNELS_LAST("", "GlobalMaxPool", 11, 17, global_pool_infer, compute_max, global_pool_cost,
                              kChannelsLastInput0);
ASC_REGISTER_OP_CHANNELS_LAST("", "GlobalLpPool", 11, 17, global_pool_infer, compute_lp, global_pool_cost,
                              kChannelsLastInput0);

}  // namespace asc::ops
