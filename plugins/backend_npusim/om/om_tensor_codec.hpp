// asc::Tensor <-> om.TensorData.
#pragma once

#include <asc/sdk/tensor.hpp>
#include <string>

#include "om/om.pb.h"

namespace asc::npusim {

// The tensor's elements, row-major, converted to `stored` (the tensor's own dtype, or a
// narrower float for weights: see weight_storage.hpp).
om::TensorData encode_tensor(const Tensor& tensor, DType stored);
inline om::TensorData encode_tensor(const Tensor& tensor) { return encode_tensor(tensor, tensor.dtype()); }

// Checks dtypes, shape and byte count (EE4004 naming `origin` and `where`) and widens stored
// fp16/bf16 elements back to the host dtype.
Tensor decode_tensor(const om::TensorData& data, const std::string& origin, const std::string& where);

}  // namespace asc::npusim
