#include "tensor_compare.hpp"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <vector>

namespace asc::conformance {
namespace {

std::string describe(const Tensor& tensor) {
  return std::string(dtype_name(tensor.dtype())) + shape_to_string(tensor.shape());
}

bool close(double expected, double actual, const Tolerance& tolerance) {
  if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
  if (expected == actual) return true;  // equal infinities (inf - inf is NaN)
  return std::abs(actual - expected) <= tolerance.atol + tolerance.rtol * std::abs(expected);
}

template <class T, class Close>
std::string compare_values(const std::vector<T>& expected, const std::vector<T>& actual, Close&& is_close) {
  std::size_t mismatches = 0;
  std::size_t worst = 0;
  double worst_error = -1;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (is_close(expected[i], actual[i])) continue;
    ++mismatches;
    const double error = std::abs(static_cast<double>(actual[i]) - static_cast<double>(expected[i]));
    if (!(error <= worst_error)) {  // NaN errors count as the worst
      worst_error = error;
      worst = i;
    }
  }
  if (mismatches == 0) return "";
  std::ostringstream text;
  text.precision(9);
  text << mismatches << " of " << expected.size() << " elements differ; worst at flat index " << worst
       << ": got " << actual[worst] << ", expected " << expected[worst];
  return text.str();
}

}  // namespace

std::string compare_tensors(const Tensor& expected, const Tensor& actual, const Tolerance& tolerance) {
  if (!actual.defined()) return "no tensor produced";
  if (expected.dtype() != actual.dtype() || expected.shape() != actual.shape())
    return "got " + describe(actual) + ", expected " + describe(expected);
  if (is_floating(expected.dtype()))
    return compare_values(expected.to_doubles(), actual.to_doubles(),
                          [&](double e, double a) { return close(e, a, tolerance); });
  return compare_values(expected.to_int64s(), actual.to_int64s(),
                        [](std::int64_t e, std::int64_t a) { return e == a; });
}

}  // namespace asc::conformance
