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

}  // namespace asc::ops
