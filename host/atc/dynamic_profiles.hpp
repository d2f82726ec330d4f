// ATC's dynamic-shape flags turned into what the pipeline takes: --input_shape for onnx.load and
// one of dynamic_batch_size / dynamic_image_size / dynamic_dims for npusim.compile.
//
// --dynamic_dims follows ATC: each profile gives a value for every -1 dim of --input_shape, in
// order. The seed also writes whole shapes (--input_shape="images:1,3,640,640" with
// --dynamic_dims="1,3,320,320;1,3,640,640") and the spelling --dynamic_shape="images:[1,3,320,320];
// [1,3,640,640]"; both are read as whole-shape profiles: every dim where a profile differs from
// --input_shape becomes -1, and the profiles keep the values of those dims.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "asc/host/ascend_flags.hpp"

namespace asc::atc {

struct DynamicShapes {
  std::string input_shape;  // rewritten when whole-shape profiles made dims dynamic
  std::string dynamic_batch_size, dynamic_image_size, dynamic_dims;
};

// Reads --input_shape, --dynamic_batch_size, --dynamic_image_size, --dynamic_dims and
// --dynamic_shape. Throws EE5008 when more than one kind of dynamic flag is given (dynamic_dims
// with dynamic_shape is one kind: they must then agree) or a dynamic flag lacks --input_shape
// where it is needed, and EE1009 naming the entry for a shape string that is malformed or does
// not fit --input_shape.
DynamicShapes resolve_dynamic_shapes(const host::ParsedFlags& flags);

}  // namespace asc::atc
