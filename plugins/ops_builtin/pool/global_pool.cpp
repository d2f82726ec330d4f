// GlobalAveragePool, GlobalMaxPool and GlobalLpPool (opset 11-17): one value per (N, C) plane,
// spatial axes kept as size 1.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include <asc/sdk/parallel.hpp>
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

// Folds every (N, C) plane of input 0 into one value, in double: acc = fold.start, then
// acc = fold.add(acc, x) for each element in order, then fold.finish(acc, count). A channels-last
// input is read as it is, pixel after pixel with an accumulator per channel (each plane's elements
// still in the same order, so the same result as the contiguous input's plane-by-plane pass),
// images and blocks of channels shared out on the kernel's threads.
template <class Fold>
void global_pool(KernelContext& context, const char* op, const Fold& fold) {
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
      if (channels_last) {
        // Work items of an image's block of channels (ResNet-50's last 2048 channels: 8 an image).
        constexpr std::int64_t kBlock = 256;
        const std::int64_t blocks = (channels + kBlock - 1) / kBlock;
        parallel_for(context.threads, y_shape[0] * blocks, [&](std::int64_t item) {
          const std::int64_t n = item / blocks, first = item % blocks * kBlock;
          const std::int64_t count = std::min(kBlock, channels - first);
          double accumulators[kBlock];
          std::fill(accumulators, accumulators + count, fold.start);
          for (std::int64_t i = 0; i < plane_size; ++i) {
            const T* pixel = in + (n * plane_size + i) * channels + first;
            for (std::int64_t c = 0; c < count; ++c)
              accumulators[c] = fold.add(accumulators[c], static_cast<double>(pixel[c]));
          }
          for (std::int64_t c = 0; c < count; ++c)
            out[n * channels + first + c] = static_cast<T>(fold.finish(accumulators[c], plane_size));
        });
        return;
      }
      for (std::int64_t p = 0; p < planes; ++p) {
        double accumulator = fold.start;
        for (std::int64_t i = 0; i < plane_size; ++i)
          accumulator = fold.add(accumulator, static_cast<double>(in[p * plane_size + i]));
        out[p] = static_cast<T>(fold.finish(accumulator, plane_size));
      }
    } else {
      throw Error(ErrorCode::OperatorDtypeUnsupported,
                  node.describe() + ": " + op + " supports float16, bfloat16, float32 and float64, not " +
                      std::string(dtype_name(dtype)));
    }
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

struct AverageFold {
  double start = 0.0;
  double add(double sum, double value) const { return sum + value; }
  double finish(double sum, std::int64_t count) const { return count == 0 ? 0.0 : sum / static_cast<double>(count); }
};

struct MaxFold {
  double start = -std::numeric_limits<double>::infinity();
  double add(double best, double value) const { return std::max(best, value); }
  double finish(double best, std::int64_t) const { return best; }
};

struct LpFold {
  double power;
  double start = 0.0;
  double add(double sum, double value) const { return sum + std::pow(std::abs(value), power); }
  double finish(double sum, std::int64_t) const { return std::pow(sum, 1.0 / power); }
};

void compute_average(KernelContext& context) { global_pool(context, "GlobalAveragePool", AverageFold{}); }

void compute_max(KernelContext& context) { global_pool(context, "GlobalMaxPool", MaxFold{}); }

void compute_lp(KernelContext& context) {
  const std::int64_t p = context.node.attributes.get_int("p", 2);
  if (p < 1)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": attribute 'p' must be >= 1");
  global_pool(context, "GlobalLpPool", LpFold{static_cast<double>(p)});
}

}  // namespace

ASC_REGISTER_OP_CHANNELS_LAST("", "GlobalAveragePool", 11, 17, global_pool_infer, compute_average, global_pool_cost,
                              kChannelsLastInput0);
ASC_REGISTER_OP_CHANNELS_LAST("", "GlobalMaxPool", 11, 17, global_pool_infer, compute_max, global_pool_cost,
                              kChannelsLastInput0);
ASC_REGISTER_OP_CHANNELS_LAST("", "GlobalLpPool", 11, 17, global_pool_infer, compute_lp, global_pool_cost,
                              kChannelsLastInput0);

}  // namespace asc::ops
