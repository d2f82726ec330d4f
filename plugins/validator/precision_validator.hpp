// The "precision" validator: msit's metrics, the seed's thresholds and the diagnosis, behind the
// SDK's Validator interface (so other plugins can compare tensors without files).
#pragma once

#include <asc/sdk/validator.hpp>

namespace asc::validator {

class PrecisionValidator : public Validator {
 public:
  std::string name() const override { return "precision"; }
  std::string description() const override;
  ComparisonResult compare(const TensorView& golden, const TensorView& actual,
                           const ComparisonOptions& options) const override;
};

}  // namespace asc::validator
