// The shape each model input runs at. A static .om has one compiled profile: its shapes. A
// dynamic one has several; --dymBatch, --dymHW or --dymDims (or the seed's --batch on a
// dynamic-batch model) set the dimensions the profiles differ in. Whether a compiled profile has
// the resulting shapes is the executable's check (EE8003 listing the profiles).
#pragma once

#include <asc/sdk/graph.hpp>
#include <vector>

#include "bench_options.hpp"

namespace asc::bench {

// Per compiled profile, the shape of every input (in `inputs` order).
using ProfileShapes = std::vector<std::vector<Shape>>;

// Each input's shape with -1 where the compiled profiles differ (its dynamic dimensions).
std::vector<Shape> declared_shapes(const ProfileShapes& profiles);

// Throws EE5008 when the model is dynamic and no choice was given, or a choice does not apply
// to the model (--dymBatch on a model without a dynamic batch dimension, ...), EE5007 for a
// malformed --dymHW / --dymDims or a --dymDims naming no input, EE1009 for a --dymDims shape of
// another rank than the input's.
std::vector<Shape> run_shapes(const std::vector<ValueInfo>& inputs, const ProfileShapes& profiles,
                              const BenchOptions& options);

}  // namespace asc::bench
