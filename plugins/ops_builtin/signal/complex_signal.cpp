#include "signal/complex_signal.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include <asc/sdk/error.hpp>

#include "common/elementwise.hpp"

namespace asc::ops {

std::vector<Complex> read_complex_signal(const Tensor& signal, const Node& node) {
  require_type_set<TypeSet::Floating>(signal.dtype(), node);
  const std::int64_t parts = signal.rank() == 0 ? 0 : signal.shape().back();
  if (parts != 1 && parts != 2)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": signal of shape " + shape_to_string(signal.shape()) +
                                                " must end in an axis of 1 (real) or 2 (complex) values");
  const std::vector<double> values = signal.to_doubles();
  std::vector<Complex> result(values.size() / static_cast<std::size_t>(parts));
  for (std::size_t i = 0; i < result.size(); ++i)
    result[i] = parts == 1 ? Complex(values[i], 0.0) : Complex(values[2 * i], values[2 * i + 1]);
  return result;
}

Tensor complex_tensor(const std::vector<Complex>& values, Shape shape, DType dtype) {
  shape.push_back(2);
  Tensor result(DType::Float64, shape);
  double* out = result.data<double>();
  for (std::size_t i = 0; i < values.size(); ++i) {
    out[2 * i] = values[i].real();
    out[2 * i + 1] = values[i].imag();
  }
  return dtype == DType::Float64 ? result : result.cast(dtype);
}

void direct_dft(std::span<const Complex> signal, bool inverse, std::span<Complex> out) {
  const std::size_t n = signal.size();
  const double sign = inverse ? 1.0 : -1.0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    Complex sum = 0.0;
    for (std::size_t t = 0; t < n; ++t) {
      // k * t reduced mod n keeps the angle small, so cos/sin stay exact to rounding.
      const double angle = sign * 2.0 * std::numbers::pi * static_cast<double>((k * t) % n) / static_cast<double>(n);
      sum += signal[t] * Complex(std::cos(angle), std::sin(angle));
    }
    out[k] = inverse ? sum / static_cast<double>(n) : sum;
  }
}

}  // namespace asc::ops
