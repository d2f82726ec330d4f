// The smallest tolerance that would have passed, when error_rate_threshold lets some elements
// fail (with no failures allowed it is simply the maximum error, known from the first pass).
#pragma once

#include <asc/sdk/tensor.hpp>
#include <cstdint>

namespace asc::validator {

enum class ErrorKind { Absolute, Relative };

// The smallest t such that at most `allowed` finite pairs have an error above t, i.e. the
// (allowed+1)-th largest error; 0 when allowed >= finite_pairs. Exact: a radix selection over
// the errors' bit patterns, one pass over the data per 16 bits (usually two or three passes).
double smallest_passing_tolerance(const TensorView& golden, const TensorView& actual, ErrorKind kind,
                                  std::int64_t allowed, std::int64_t finite_pairs);

}  // namespace asc::validator
