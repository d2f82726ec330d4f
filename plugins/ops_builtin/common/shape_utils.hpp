// Shape helpers shared by the operator kernels: axis normalisation and numpy broadcasting, for
// concrete shapes (kernels) and for possibly symbolic dims (inference).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <asc/sdk/graph.hpp>
#include <asc/sdk/tensor.hpp>

namespace asc::ops {

// Maps a possibly negative axis into [0, rank); throws EE2003 naming the node when out of range.
std::int64_t normalize_axis(std::int64_t axis, std::int64_t rank, const Node& node);
std::vector<std::int64_t> normalize_axes(const std::vector<std::int64_t>& axes, std::int64_t rank,
                                         const Node& node);

// Numpy multidirectional broadcasting; throws EE2003 naming the node for incompatible shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b, const Node& node);
Shape broadcast_shapes(const std::vector<const Shape*>& shapes, const Node& node);
// Same rule on inference dims: a symbolic dim broadcast against 1 stays symbolic; against an
// unknown or a different symbol the result is unknown.
std::vector<Dim> broadcast_dims(const std::vector<Dim>& a, const std::vector<Dim>& b, const Node& node);

// Strides (in elements) for reading a contiguous tensor of `shape` as if broadcast to `target`:
// broadcast dimensions get stride 0. `shape` must be broadcastable to `target`.
Shape broadcast_strides(const Shape& shape, const Shape& target);

// Visits every index of `shape` in row-major order, calling fn(offsets) where offsets[k] is the
// element offset into operand k computed from `operand_strides[k]`. Used by broadcasting kernels
// with any number of operands.
template <class Fn>
void for_each_index(const Shape& shape, const std::vector<Shape>& operand_strides, Fn&& fn) {
  const std::size_t operands = operand_strides.size();
  const std::size_t rank = shape.size();
  const std::int64_t total = num_elements(shape);
  std::vector<std::int64_t> offsets(operands, 0);
  std::vector<std::int64_t> index(rank, 0);
  for (std::int64_t n = 0; n < total; ++n) {
    fn(offsets);
    for (std::size_t d = rank; d-- > 0;) {
      ++index[d];
      for (std::size_t k = 0; k < operands; ++k) offsets[k] += operand_strides[k][d];
      if (index[d] < shape[d]) break;
      for (std::size_t k = 0; k < operands; ++k) offsets[k] -= operand_strides[k][d] * shape[d];
      index[d] = 0;
    }
  }
}

// Static dims of a ValueInfo as Shape when all are known.
std::optional<Shape> known_shape(const ValueInfo& info);
std::vector<Dim> to_dims(const Shape& shape);

}  // namespace asc::ops
