// The NPU's fp16 storage as the simulator reproduces it while tensors stay float32 in host
// memory: values rounded to the nearest fp16 (compiled_model.hpp's host storage convention).
// Which values are fp16 is the compiler's decision (compiler/precision_pass.hpp).
#pragma once

#include <cstdint>

#include <asc/sdk/tensor.hpp>

namespace asc::npusim {

// Rounds every float32 element to fp16 and back, in place, on up to `threads` threads; other
// dtypes are left alone. The tensor must be contiguous or channels-last (its elements one run in
// memory) and own its buffer (pass a clone for shared data).
void round_float_tensor_to_f16(Tensor& tensor, int threads = 1);

// Rounds float32 elements [begin, end) of `tensor`'s memory to fp16 and back, in place: the
// epilogue a kernel may run on each piece of its output as it finishes it
// (KernelContext::output_epilogue); other dtypes are left alone.
void round_range_to_f16(Tensor& tensor, std::int64_t begin, std::int64_t end);

// A float32 tensor with fp16-representable values: `tensor` itself when it is not float32.
Tensor rounded_copy(const Tensor& tensor);
// The same values as rounded_copy(tensor), rounded in place when `tensor` is the only handle on
// its contiguous or channels-last buffer (a kernel's fresh output), which saves a copy of every
// task's result.
// `threads` share the rounding (asc::parallel_for).
Tensor rounded(Tensor tensor, int threads = 1);

// A float16 tensor's values as float32 (exact), in its layout when that is contiguous or
// channels-last, converted on up to `threads` threads.
Tensor widened_from_f16(const Tensor& tensor, int threads);

}  // namespace asc::npusim
