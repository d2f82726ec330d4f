#include "precision.hpp"

#include <asc/sdk/half.hpp>

namespace asc::npusim {

void round_float_tensor_to_f16(Tensor& tensor) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return;
  const auto values = tensor.span<float>();
  round_to_f16(values, values);
}

Tensor rounded_copy(const Tensor& tensor) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return tensor;
  Tensor copy = tensor.contiguous().clone();
  round_float_tensor_to_f16(copy);
  return copy;
}

Tensor rounded(Tensor tensor) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return tensor;
  if (!tensor.is_contiguous() || tensor.buffer().use_count() != 1) return rounded_copy(tensor);
  round_float_tensor_to_f16(tensor);
  return tensor;
}

}  // namespace asc::npusim
