// Internal helpers shared by tensor.cpp and tensor_cast.cpp: strided iteration and numpy-style
// element conversion.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>

#include "asc/sdk/tensor.hpp"

namespace asc::detail {

template <class T> constexpr bool is_half_float_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

// Calls fn(element_offset) for every element in row-major order.
template <class Fn> void for_each_offset(const Shape& shape, const Shape& strides, Fn&& fn) {
  const std::int64_t count = num_elements(shape);
  if (count == 0) return;
  const std::size_t rank = shape.size();
  Shape index(rank, 0);
  std::int64_t offset = 0;
  for (std::int64_t n = 0; n < count; ++n) {
    fn(offset);
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) {
        offset += strides[d];
        break;
      }
      offset -= strides[d] * (shape[d] - 1);
      index[d] = 0;
    }
  }
}

// One element converted like numpy's astype: to bool is != 0 (NaN is true), float to integer
// truncates toward zero. Where numpy's result is platform-defined (NaN or out-of-range floats to
// integers) this gives 0 for NaN and saturates otherwise. Integer to integer wraps.
template <class To, class From> To convert_element(From value) {
  if constexpr (std::is_same_v<To, From>) {
    return value;
  } else if constexpr (is_half_float_v<From>) {
    return convert_element<To>(static_cast<float>(value));
  } else if constexpr (std::is_same_v<To, bool>) {
    return value != From(0);
  } else if constexpr (std::is_same_v<From, bool>) {
    return To(value ? 1 : 0);
  } else if constexpr (is_half_float_v<To>) {
    return To(static_cast<float>(value));
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    const double d = static_cast<double>(value);
    if (std::isnan(d)) return To(0);
    const double truncated = std::trunc(d);
    if (truncated <= static_cast<double>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    if (truncated >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(truncated);
  } else {
    return static_cast<To>(value);
  }
}

}  // namespace asc::detail
