// CompiledModel <-> om.CompiledModel (the .om payload).
#pragma once

#include <string>

#include "compiler/compiled_model.hpp"
#include "om/om.pb.h"

namespace asc::npusim {

// Weights are stored at their device dtype where weight_storage.hpp says so.
om::CompiledModel encode_model(const CompiledModel& model);

// Throws EE4004 naming `origin` and the field that is malformed (unknown enum values, bad
// tensors, duplicates, no profile). References between parts are checked by om_model_check.hpp.
// The weights' bytes in `proto` are released as they are decoded.
CompiledModel decode_model(om::CompiledModel& proto, const std::string& origin);

}  // namespace asc::npusim
