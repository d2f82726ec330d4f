// Turns a comparison's statistics into its error classes and human-readable diagnosis: the
// verdict, NaN/Inf positions, fp16 overflow, worst elements, where failures concentrate, a
// scale error, and the tolerances that would have passed.
#pragma once

#include "tensor_comparison.hpp"

namespace asc::validator {

// Fills c.scale, c.concentration, c.error_classes and c.diagnostics from the rest of c.
void diagnose(TensorComparison& c);

}  // namespace asc::validator
