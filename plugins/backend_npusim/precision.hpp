// ATC's precision_mode as the simulator applies it: which dtype each node computes in, and the
// fp16 rounding that gives the NPU's numbers while tensors stay float32 in host memory.
#pragma once

#include <asc/sdk/dtype.hpp>
#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/tensor.hpp>
#include <string>
#include <vector>

#include "soc_config.hpp"

namespace asc::npusim {

enum class PrecisionMode { ForceFp16, MustKeepOriginDtype, ForceFp32 };

// "force_fp16" (default when empty), "must_keep_origin_dtype", "force_fp32"; anything else is
// EE5007 listing the three.
PrecisionMode parse_precision_mode(const std::string& text);
std::string precision_mode_name(PrecisionMode mode);

// The dtype a node with float operands computes in: fp16 under force_fp16, its own float dtype
// otherwise. Cube nodes computing in float32 need an fp32 cube on the SoC (EE2002 naming the node
// and SoC otherwise).
DType compute_dtype(PrecisionMode mode, const Node& node, ComputeUnit unit, DType graph_dtype, const SocConfig& soc);

// Rounds every float32 element to fp16 and back, in place; other dtypes are left alone. The
// tensor must be contiguous and own its buffer (pass a clone for shared data).
void round_float_tensor_to_f16(Tensor& tensor);

// A float32 tensor with fp16-representable values: `tensor` itself when it is not float32.
Tensor rounded_copy(const Tensor& tensor);

}  // namespace asc::npusim
