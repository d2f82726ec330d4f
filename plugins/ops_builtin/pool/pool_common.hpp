// What the windowed pools (MaxPool, AveragePool, LpPool) share: the window a node describes for
// a given input, output shape inference, cost, and the walk over every output's input taps.
#pragma once

#include <cstdint>
#include <vector>

#include <asc/sdk/op_registry.hpp>

#include "common/conv_pool_window.hpp"

namespace asc::ops {

// Input taps of one output along one axis: `count` positions first, first + step, ...; and
// `padded_count`, how many kernel taps fall inside the explicitly padded input.
struct AxisTaps {
  std::int64_t first = 0;
  std::int64_t count = 0;
  std::int64_t step = 1;
  std::int64_t padded_count = 0;
};

struct PoolWindow {
  Window3 window;
  std::vector<AxisWindow> axes;   // per spatial axis, pads resolved
  std::vector<AxisTaps> taps[3];  // per Window3 axis, per output index
  Shape output_shape;             // [N, C, out...]
  std::int64_t planes = 0;        // N * C
};

// Reads kernel_shape (required), strides, pads, auto_pad, ceil_mode and, when `reads_dilations`,
// dilations; throws InvalidOperator naming the node when they do not fit `input`.
PoolWindow pool_window(const Node& node, const Shape& input, bool reads_dilations);

// Output 0 (and every further output, e.g. MaxPool's Indices, with `extra_dtype`) is
// [N, C, out...] as far as the input shape is known.
void infer_pool_output(InferenceContext& context, bool reads_dilations, DType extra_dtype = DType::Int64);

// Vector: one operation per input tap of every output.
CostFacts pool_cost(const CostContext& context);

// Calls visit(output_offset, depth_taps, height_taps, width_taps) for every output position of
// one plane, in row-major order.
template <class Visit>
void for_each_pool_output(const PoolWindow& pool, Visit&& visit) {
  const Window3& w = pool.window;
  std::int64_t offset = 0;
  for (std::int64_t od = 0; od < w.output[0]; ++od)
    for (std::int64_t oh = 0; oh < w.output[1]; ++oh)
      for (std::int64_t ow = 0; ow < w.output[2]; ++ow, ++offset)
        visit(offset, pool.taps[0][od], pool.taps[1][oh], pool.taps[2][ow]);
}

// A window reduction over every plane: for each output position, the sum in double of
// term(x) over the window's taps, turned into the output by finish(sum, depth_taps, height_taps,
// width_taps) (AveragePool divides, LpPool takes the p-th root).
template <class T, class Term, class Finish>
void pool_window_sums(const PoolWindow& pool, const T* x, T* y, Term&& term, Finish&& finish) {
  const Window3& w = pool.window;
  const std::int64_t in_size = w.input_size();
  const std::int64_t out_size = w.output_size();
  for (std::int64_t plane = 0; plane < pool.planes; ++plane) {
    const T* in = x + plane * in_size;
    T* out = y + plane * out_size;
    for_each_pool_output(pool, [&](std::int64_t o, const AxisTaps& td, const AxisTaps& th, const AxisTaps& tw) {
      double sum = 0.0;
      for (std::int64_t i = 0, d = td.first; i < td.count; ++i, d += td.step)
        for (std::int64_t j = 0, h = th.first; j < th.count; ++j, h += th.step) {
          const T* row = in + (d * w.input[1] + h) * w.input[2];
          for (std::int64_t k = 0, c = tw.first; k < tw.count; ++k, c += tw.step)
            sum += term(static_cast<double>(row[c]));
        }
      out[o] = finish(sum, td, th, tw);
    });
  }
}

}  // namespace asc::ops
