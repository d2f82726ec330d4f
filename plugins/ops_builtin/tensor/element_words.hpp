// Data-movement kernels move elements as unsigned words of the element's size, so one
// instantiation per size serves every dtype (bool, int8 ... float64 alike).
#pragma once

#include <cstdint>

#include <asc/sdk/tensor.hpp>

namespace asc::ops {

// Calls fn(TypeTag<W>{}) with W the unsigned integer as wide as one element of `dtype`.
template <class Fn> decltype(auto) visit_element_word(DType dtype, Fn&& fn) {
  switch (dtype_size(dtype)) {
    case 1: return fn(TypeTag<std::uint8_t>{});
    case 2: return fn(TypeTag<std::uint16_t>{});
    case 4: return fn(TypeTag<std::uint32_t>{});
    case 8: return fn(TypeTag<std::uint64_t>{});
    default: break;
  }
  throw_unsupported_dtype(dtype, "data movement");
}

template <class W> const W* words_of(const Tensor& tensor) { return reinterpret_cast<const W*>(tensor.view().raw()); }
template <class W> W* mutable_words_of(Tensor& tensor) { return reinterpret_cast<W*>(tensor.view().raw()); }

}  // namespace asc::ops
