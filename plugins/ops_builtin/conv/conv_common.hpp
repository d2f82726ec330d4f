// What Conv and ConvInteger share: checking x/w shapes against the attributes, the geometry the
// kernel runs, output shape inference and cost.
#pragma once

#include <asc/sdk/op_registry.hpp>

#include "conv/convolution.hpp"

namespace asc::ops {

// Geometry for x [N, C, in...] and w [M, C/group, kernel...]; throws InvalidOperator naming the
// node when they do not fit each other or the attributes.
ConvGeometry conv_geometry(const Node& node, const Shape& x, const Shape& w);
// [N, M, out...] for a geometry with `spatial_rank` spatial axes.
Shape conv_output_shape(const ConvGeometry& geometry, std::size_t spatial_rank);

// Output [N, M, out...] of dtype `output_dtype`, as far as the input shapes are known.
void infer_conv_output(InferenceContext& context, DType output_dtype);

// Cube: 2 * N * M * out * (C/group) * kernel FLOPs; reads every input, writes the output.
CostFacts conv_cost(const CostContext& context);

}  // namespace asc::ops
