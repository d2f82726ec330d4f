// Running a TBE DSL expression (expr.hpp) on tensors: the golden kernel and the NPU kernel, both
// derived from the one expression.
//
// Golden: every stage in float64 (the Cube's products summed in float64), whatever the dtypes;
// what op_validate and the tests compare against. Device: float32 arithmetic with the
// simulator's numerics for a device compute dtype: under Float16 the placeholders are read as
// fp16, the Cube accumulates in fp32 (L0C) and every stage the schedule stores in UB is rounded
// to fp16 (a Float32 stage is stored at the device dtype unless an explicit cast asks for fp32);
// under Float32 / Undefined nothing is rounded beyond float32.
#pragma once

#include <map>
#include <string>

#include "asc/sdk/tbe/expr.hpp"
#include "asc/sdk/tensor.hpp"

namespace asc::tbe {

enum class Numerics : std::uint8_t { Golden, Device };

struct EvaluateOptions {
  Numerics numerics = Numerics::Golden;
  DType device_dtype = DType::Undefined;  // Device numerics: the task's compute dtype
  int threads = 1;                         // asc::parallel_for threads
};

// The dtype a stage's result is held at on the device under `device_dtype`.
DType stored_dtype(const Stage& stage, DType device_dtype);

// Evaluates `output` with `inputs` keyed by placeholder name (any numeric dtype, contiguous or
// not). Golden returns Float64; Device returns the output stage's dtype (Float32 holding
// fp16-representable values where it is stored as fp16). A missing input or one whose shape
// differs from its placeholder is EE8003 naming the placeholder.
Tensor evaluate(const TensorExpr& output, const std::map<std::string, const Tensor*>& inputs,
                const EvaluateOptions& options = {});

}  // namespace asc::tbe
