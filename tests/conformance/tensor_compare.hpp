// The conformance criterion for one output tensor.
#pragma once

#include <asc/sdk/tensor.hpp>
#include <string>

namespace asc::conformance {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

// Empty when `actual` matches `expected`: same dtype and shape, and every element satisfies
// |a - e| <= atol + rtol * |e| (NaN matches NaN, an infinity only itself; integers and bools
// compare exactly). Otherwise one line saying what differs, with the worst element.
std::string compare_tensors(const Tensor& expected, const Tensor& actual, const Tolerance& tolerance);

}  // namespace asc::conformance
