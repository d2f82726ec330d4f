// HannWindow, HammingWindow, BlackmanWindow (opset 17): generalized cosine windows
//   w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N),  n = 0 .. size-1,
// with N = size when 'periodic' (the default) and N = size - 1 when symmetric. A symmetric window
// of size 1 is [1] (as scipy.signal defines it; the formula would divide by zero). The output
// type is 'output_datatype' (integer types truncate toward zero).
#include <cmath>
#include <numbers>
#include <string>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/elementwise.hpp"
#include "signal/signal_inputs.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

struct CosineWindow {
  double a0;
  double a1;
  double a2;
};

constexpr CosineWindow kHann{0.5, 0.5, 0.0};
constexpr CosineWindow kHamming{25.0 / 46.0, 21.0 / 46.0, 0.0};
constexpr CosineWindow kBlackman{0.42, 0.5, 0.08};

void windows_infer(InferenceContext& context) {
  const std::optional<std::int64_t> size = known_scalar_int_input(context, 0);
  if (size && *size < 0)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": size " + std::to_string(*size) + " is negative");
  set_output(context, 0, output_datatype(context.node), Dims{size ? Dim(*size) : Dim()});
}

template <const CosineWindow& Coefficients>
void windows_compute(KernelContext& context) {
  const std::int64_t size = scalar_int_input(context, 0, "size");
  if (size < 0)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": size " + std::to_string(size) + " is negative");
  const bool periodic = context.attrs().get_int("periodic", 1) != 0;
  const double period = static_cast<double>(periodic ? size : size - 1);
  Tensor window(DType::Float64, {size});
  double* out = window.data<double>();
  for (std::int64_t n = 0; n < size; ++n) {
    if (period == 0) {
      out[n] = 1.0;
      continue;
    }
    const double phase = 2.0 * std::numbers::pi * static_cast<double>(n) / period;
    out[n] = Coefficients.a0 - Coefficients.a1 * std::cos(phase) + Coefficients.a2 * std::cos(2.0 * phase);
  }
  const DType dtype = output_datatype(context.node);
  context.outputs[0] = dtype == DType::Float64 ? window : window.cast(dtype);
}

// Vector unit: two cosines and a few multiply-adds per element.
const CostFunction windows_cost = per_element_cost(2 * element_flops::kTranscendental + 4);

}  // namespace

ASC_REGISTER_OP("", "HannWindow", 17, 17, windows_infer, windows_compute<kHann>, windows_cost);
ASC_REGISTER_OP("", "HammingWindow", 17, 17, windows_infer, windows_compute<kHamming>, windows_cost);
ASC_REGISTER_OP("", "BlackmanWindow", 17, 17, windows_infer, windows_compute<kBlackman>, windows_cost);

}  // namespace asc::ops
