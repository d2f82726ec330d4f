// Small pieces the shape/type inference of the tensor, resize and quantization operators share.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

using Dims = std::vector<Dim>;

// Input i's dims; std::nullopt when the input is absent or its rank is unknown.
std::optional<Dims> input_dims(const InferenceContext& context, std::size_t i);
// Input i's shape when every dimension is static.
std::optional<Shape> input_static_shape(const InferenceContext& context, std::size_t i);
// The length of 1-D input i when statically known (e.g. how many axes an axes input lists).
std::optional<std::int64_t> input_length(const InferenceContext& context, std::size_t i);

void set_output(InferenceContext& context, std::size_t i, DType dtype, std::optional<Dims> dims);
Dims unknown_dims(std::size_t rank);
// The values of dims that are all static (kernels reuse inference logic on concrete shapes).
Shape static_values(const Dims& dims);
// The product of dims (static only when all are static).
Dim product_dim(std::span<const Dim> dims);

}  // namespace asc::ops
