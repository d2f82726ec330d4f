// The conv, pool and normalisation kernels compute float16/bfloat16 tensors in float32 and round
// the result back once, as ONNX's reference implementation does.
#pragma once

#include <asc/sdk/tensor.hpp>

namespace asc::ops {

inline bool is_half_precision(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16;
}

inline DType nn_compute_dtype(DType dtype) {
  return is_half_precision(dtype) ? DType::Float32 : dtype;
}

// `tensor` itself unless it is half precision, else a float32 copy.
inline Tensor to_nn_compute_dtype(const Tensor& tensor) {
  return is_half_precision(tensor.dtype()) ? tensor.cast(DType::Float32) : tensor;
}

}  // namespace asc::ops
