// Validator plugins: compare an actual tensor with a golden one and classify the error.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "asc/sdk/tensor.hpp"

namespace asc {

struct ComparisonOptions {
  double abs_tolerance = 1e-3;
  double rel_tolerance = 1e-2;
  // Pass when the fraction of failing elements is below this (0: every element must pass).
  double error_rate_threshold = 0.0;
};

struct ComparisonResult {
  bool passed = false;
  // Metric name (msit spelling: "CosineSimilarity", "MaxAbsoluteError", ...) -> value.
  std::map<std::string, double> metrics;
  // Error classes found: "absolute", "relative", "nan", "inf", "scale_offset", "fp16_overflow".
  std::vector<std::string> error_classes;
  // Human-readable diagnosis lines (worst elements, NaN coordinates, fitted scale, ...).
  std::vector<std::string> diagnostics;
};

class Validator {
 public:
  virtual ~Validator() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Throws EE7001/EE7002 when shapes or dtypes cannot be compared.
  virtual ComparisonResult compare(const TensorView& golden, const TensorView& actual,
                                   const ComparisonOptions& options) const = 0;
};

}  // namespace asc
