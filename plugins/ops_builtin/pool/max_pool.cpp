// MaxPool (opset 11-17): N-D max over dilated windows, with the optional Indices output
// (int64 positions in the flattened input, row- or column-major per storage_order).
#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>
#include <asc/sdk/parallel.hpp>

#include "common/nn_compute_dtype.hpp"
#include "common/uninitialized_tensor.hpp"
#include "pool/max_pool_row.hpp"
#include "pool/pool_common.hpp"

namespace asc::ops {
namespace {

void max_pool_infer(InferenceContext& context) {
  infer_pool_output(context, true);
}

template <class T>
T lowest() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}

// The window's maximum without its position: a branch-free max starting from the first tap, so
// a NaN first tap is kept and later NaNs are skipped, as in the indexed loop.
template <class T>
T window_max(const T* in, const Window3& w, const AxisTaps& td, const AxisTaps& th, const AxisTaps& tw) {
  if (td.count == 0 || th.count == 0 || tw.count == 0) return lowest<T>();
  T best = in[(td.first * w.input[1] + th.first) * w.input[2] + tw.first];
  for (std::int64_t i = 0, d = td.first; i < td.count; ++i, d += td.step)
    for (std::int64_t j = 0, h = th.first; j < th.count; ++j, h += th.step) {
      const T* row = in + (d * w.input[1] + h) * w.input[2];
      for (std::int64_t k = 0, c = tw.first; k < tw.count; ++k, c += tw.step)
        best = row[c] > best ? row[c] : best;
    }
  return best;
}

// Planes (batch item x channel) are independent: `threads` share them. kIndices also tracks
// where each maximum came from (the Indices output); without it the loop is a bare max.
template <bool kIndices, class T>
void max_pool(const PoolWindow& pool, bool column_major, const T* x, T* y, std::int64_t* indices,
              int threads) {
  const Window3& w = pool.window;
  const std::int64_t in_size = w.input_size();
  const std::int64_t out_size = w.output_size();
  parallel_for(threads, pool.planes, [&](std::int64_t plane) {
    const T* in = x + plane * in_size;
    T* out = y + plane * out_size;
    for_each_pool_output(
        pool, [&](std::int64_t o, const AxisTaps& td, const AxisTaps& th, const AxisTaps& tw) {
          if constexpr (!kIndices) {
            out[o] = window_max(in, w, td, th, tw);
          } else {
            T best = lowest<T>();
            bool found = false;
            std::int64_t best_d = -1, best_h = -1, best_w = -1;
            for (std::int64_t i = 0, d = td.first; i < td.count; ++i, d += td.step)
              for (std::int64_t j = 0, h = th.first; j < th.count; ++j, h += th.step) {
                const T* row = in + (d * w.input[1] + h) * w.input[2];
                for (std::int64_t k = 0, c = tw.first; k < tw.count; ++k, c += tw.step)
                  if (row[c] > best || !found) {  // the first maximum wins, as in numpy's argmax
                    best = row[c];
                    found = true;
                    best_d = d;
                    best_h = h;
                    best_w = c;
                  }
              }
            out[o] = best;
            const std::int64_t spatial = column_major ? (best_w * w.input[1] + best_h) * w.input[0] + best_d
                                                      : (best_d * w.input[1] + best_h) * w.input[2] + best_w;
            indices[plane * out_size + o] = best_d < 0 ? -1 : plane * in_size + spatial;
          }
        });
  });
}

// A channels-last float input (N, H, W, C in memory) pooled as it is: each output position takes
// the maximum of its taps' channel vectors (a vector loop over C; the same first-tap-then-greater
// rule per channel as window_max), rows of outputs shared between the threads. The output is
// channels-last too.
Tensor max_pool_channels_last(const PoolWindow& pool, const Tensor& x, int threads) {
  const Window3& w = pool.window;
  const std::int64_t batch = x.shape()[0];
  const std::int64_t channels = x.shape()[1];
  Tensor y = uninitialized_tensor(DType::Float32, pool.output_shape, channels_last_strides(pool.output_shape));
  const float* in = x.data<float>();
  float* out = y.data<float>();
  parallel_for(threads, batch * w.output[1], [&](std::int64_t line) {
    const std::int64_t n = line / w.output[1];
    max_pool_row_channels_last(pool, in + n * w.input[1] * w.input[2] * channels, channels,
                               pool.taps[1][line % w.output[1]], out + line * w.output[2] * channels);
  });
  return y;
}

void max_pool_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x_in = context.input(0);
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  const std::int64_t storage_order = node.attributes.get_int("storage_order", 0);
  if (storage_order != 0 && storage_order != 1)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": attribute 'storage_order' must be 0 or 1");
  const PoolWindow pool = pool_window(node, x_in.shape(), true);
  const bool wants_indices = context.outputs.size() > 1 && !node.outputs[1].empty();
  if (dtype == DType::Float32 && x_in.rank() == 4 && x_in.is_channels_last() && !x_in.is_contiguous() &&
      !wants_indices) {
    context.outputs[0] = max_pool_channels_last(pool, x_in, context.threads);
    return;
  }
  const Tensor x = to_nn_compute_dtype(x_in).contiguous();
  Tensor y = uninitialized_tensor(compute_dtype, pool.output_shape);  // max_pool writes every element
  Tensor indices;
  if (wants_indices) indices = uninitialized_tensor(DType::Int64, pool.output_shape);
  std::int64_t* index_data = wants_indices ? indices.data<std::int64_t>() : nullptr;
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int8_t> ||
                  std::is_same_v<T, std::uint8_t>) {
      if (wants_indices)
        max_pool<true, T>(pool, storage_order == 1, x.data<T>(), y.data<T>(), index_data, context.threads);
      else
        max_pool<false, T>(pool, storage_order == 1, x.data<T>(), y.data<T>(), nullptr, context.threads);
    } else {
      throw Error(ErrorCode::OperatorDtypeUnsupported,
                  node.describe() +
                      ": MaxPool supports float16, bfloat16, float32, float64, int8 and uint8, not " +
                      std::string(dtype_name(dtype)));
    }
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
  if (wants_indices) context.outputs[1] = indices;
}

}  // namespace

ASC_REGISTER_OP_CHANNELS_LAST("", "MaxPool", 11, 17, max_pool_infer, max_pool_compute, pool_cost, kChannelsLastInput0);

}  // namespace asc::ops
