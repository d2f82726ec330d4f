// QuantizeLinear/DequantizeLinear parameters (scale, zero point) are per tensor (one value) or,
// from opset 13, per axis (a 1-D tensor along 'axis'). Element n of the input then uses
// parameter (n / inner) % channels.
#pragma once

#include <cstdint>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

struct QuantizationAxis {
  std::int64_t channels = 1;
  std::int64_t inner = 1;

  std::int64_t parameter(std::int64_t n) const { return channels == 1 ? 0 : (n / inner) % channels; }
};

// Validates scale (input 1) and the optional zero point (input 2) against input 0.
QuantizationAxis quantization_axis(const KernelContext& context);

}  // namespace asc::ops
