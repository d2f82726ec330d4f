// The static shapes the compiler builds the model for: one profile for a static model, one per
// --dynamic_batch_size / --dynamic_image_size / --dynamic_dims entry for a model whose inputs
// keep -1 (or symbolic) dims after --input_shape. ATC's rules (ascend_interfaces.md §1.2 and its
// E10009..E10037 messages) are checked here, each failure an EE1009 that says what to change.
#pragma once

#include <asc/sdk/graph.hpp>
#include <map>
#include <string>
#include <vector>

#include "compiled_model.hpp"

namespace asc::npusim {

struct ProfileShapes {
  std::string label;                          // "static", "batch=4", "image_size=320x320", "dims=1,224"
  std::map<std::string, Shape> input_shapes;  // every graph input
};

struct DynamicProfiles {
  std::string kind;  // "", "batch", "image_size", "dims" (CompiledModel::dynamic_kind)
  std::vector<ProfileShapes> profiles;
};

// A model with dynamic input dims needs exactly one of the three flags (except a dynamic batch
// dim alone, compiled for batch 1 with a warning, as the seed converts such exports); a flag needs dynamic
// dims of the kind it sets (batch: only dim 0; image_size: only H and W, NCHW or per
// input_format NHWC; dims: any, values in input order), 2..100 distinct positive profiles, and
// the same number of values in every profile.
DynamicProfiles dynamic_profiles(const Graph& graph, const CompileOptions& options);

}  // namespace asc::npusim
