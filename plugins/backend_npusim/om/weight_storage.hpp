// Which dtype each weight is stored at in an .om. The graph keeps float32 host tensors whose
// values are fp16-representable where the device computes in fp16 (compiled_model.hpp); storing
// those at the device dtype halves the file without changing a value.
#pragma once

#include <asc/sdk/dtype.hpp>
#include <map>
#include <string>

#include "compiler/compiled_model.hpp"

namespace asc::npusim {

// Initializer name -> stored dtype, for every initializer of model.graph: the device dtype of
// its placements when it is float16 or bfloat16, the host dtype is float32 and every profile
// places it at that same dtype; otherwise the host dtype.
std::map<std::string, DType> weight_storage_dtypes(const CompiledModel& model);

}  // namespace asc::npusim
