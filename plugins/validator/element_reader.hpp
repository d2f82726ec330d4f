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
  // The elements in place when the tensor is contiguous float32 (the kernels of
  // float32_block_kernels.hpp read them directly), else nullptr.
  const float* float32_data() const;

 private:
  void read_strided(std::int64_t first, std::size_t count, double* out) const;
  TensorView view_;
  bool contiguous_;
};

// out[i] = in[i] for i < count, vectorised for the CPU at hand.
void widen_float32(const float* in, std::size_t count, double* out);

}  // namespace asc::validator
