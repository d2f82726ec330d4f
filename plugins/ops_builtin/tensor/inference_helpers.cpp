#include "tensor/inference_helpers.hpp"

#include "common/shape_utils.hpp"

namespace asc::ops {

std::optional<Dims> input_dims(const InferenceContext& context, std::size_t i) {
  if (!context.has_input(i)) return std::nullopt;
  return context.input(i).shape;
}

std::optional<Shape> input_static_shape(const InferenceContext& context, std::size_t i) {
  if (!context.has_input(i)) return std::nullopt;
  return known_shape(context.input(i));
}

std::optional<std::int64_t> input_length(const InferenceContext& context, std::size_t i) {
  const auto dims = input_dims(context, i);
  if (!dims || dims->size() != 1 || !(*dims)[0].is_static()) return std::nullopt;
  return (*dims)[0].value;
}

void set_output(InferenceContext& context, std::size_t i, DType dtype, std::optional<Dims> dims) {
  context.outputs.at(i).dtype = dtype;
  context.outputs.at(i).shape = std::move(dims);
}

Dims unknown_dims(std::size_t rank) { return Dims(rank); }

Shape static_values(const Dims& dims) {
  Shape shape;
  for (const Dim& dim : dims) shape.push_back(dim.value);
  return shape;
}

Dim product_dim(std::span<const Dim> dims) {
  std::int64_t product = 1;
  for (const Dim& dim : dims) {
    if (!dim.is_static()) return {};
    product *= dim.value;
  }
  return product;
}

}  // namespace asc::ops
