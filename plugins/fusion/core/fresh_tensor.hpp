// Memory for new tensors the passes fill completely (folded weights). Faulting in fresh pages,
// not the arithmetic, dominates folding ResNet-50's 94 MB of convolution weights, so a pass
// that makes many such tensors carves them from one uninitialised buffer (the SDK's, in memory
// hinted for transparent huge pages).
#pragma once

#include <cstddef>
#include <memory>

#include <asc/sdk/tensor.hpp>

namespace asc::fusion {

class TensorArena {
 public:
  // Room for tensors totalling `bytes` (each rounded up to 64 bytes).
  explicit TensorArena(std::size_t bytes);
  static std::size_t footprint(DType dtype, const Shape& shape);
  // A contiguous tensor whose contents are undefined until written; it keeps the arena's
  // memory alive. Throws EE9001 when the arena is full.
  Tensor take(DType dtype, const Shape& shape);

 private:
  std::shared_ptr<Buffer> memory_;
  std::size_t size_ = 0;
  std::size_t used_ = 0;
};

}  // namespace asc::fusion
