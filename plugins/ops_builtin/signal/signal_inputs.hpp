// Inputs and attributes the signal operators (DFT, STFT, windows, MelWeightMatrix) share:
// scalar integer/float inputs (dft_length, frame_step, size, ...) and 'output_datatype'.
#pragma once

#include <cstdint>
#include <optional>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

// The value of input `index`, a one-element tensor; throws InvalidOperator naming the node and
// `name` when it has more elements, and OperatorDtypeUnsupported unless it is int32/int64.
std::int64_t scalar_int_input(const KernelContext& context, std::size_t index, const char* name);
// Same for a float16/bfloat16/float/double input.
double scalar_float_input(const KernelContext& context, std::size_t index, const char* name);
// At inference time: the value when input `index` is present and a known constant.
std::optional<std::int64_t> known_scalar_int_input(const InferenceContext& context, std::size_t index);

// The element type named by attribute 'output_datatype' (an ONNX TensorProto code, default
// 1 = float); throws OperatorDtypeUnsupported for codes without an asc dtype or bool.
DType output_datatype(const Node& node);

}  // namespace asc::ops
