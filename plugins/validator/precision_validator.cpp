#include "precision_validator.hpp"

#include "tensor_comparison.hpp"

namespace asc::validator {

std::string PrecisionValidator::description() const {
  return "msit compare metrics (CosineSimilarity, MaxAbsoluteError, ...), abs/rel tolerances with an "
         "error-rate "
         "threshold, and a diagnosis: NaN/Inf, fp16 overflow, worst elements, channel concentration, scale "
         "errors";
}

ComparisonResult PrecisionValidator::compare(const TensorView& golden, const TensorView& actual,
                                             const ComparisonOptions& options) const {
  return compare_tensors(golden, actual, options).to_result();
}

}  // namespace asc::validator
