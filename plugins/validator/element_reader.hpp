// Reads a run of a tensor's elements (row-major order, any dtype, any strides) as doubles.
#pragma once

#include <asc/sdk/tensor.hpp>
#include <cstddef>
#include <cstdint>

namespace asc::validator {

class ElementReader {
 public:
  explicit ElementReader(const TensorView& view);
  // Converts elements [first, first + count) to double into `out`. Thread-safe.
  void read(std::int64_t first, std::size_t count, double* out) const;

 private:
  void read_strided(std::int64_t first, std::size_t count, double* out) const;
  TensorView view_;
  bool contiguous_;
};

}  // namespace asc::validator
