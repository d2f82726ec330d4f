// Device data formats, as ATC chooses them for the cube: 4-D activations entering or leaving a
// convolution are NC1HWC0 (C split into C1 blocks of C0 = 32 bytes: 16 fp16, 32 int8, 8 fp32
// elements), and stay so through the vector ops whose op-info lists NC1HWC0 (Relu, Add, BN,
// pooling, Cast, ...); convolution weights are FRACTAL_Z; MatMul/Gemm operands and results
// FRACTAL_NZ (16 x C0 fractals); everything else, and the graph's own inputs and outputs, keeps
// its host layout (NCHW for 4-D, or --input_format; ND otherwise). With --enable_small_channel
// the first convolution with at most 4 input channels reads C0 = 4, as ATC does (AIPP + first
// conv).
#pragma once

#include <asc/sdk/graph.hpp>
#include <map>
#include <string>
#include <unordered_map>

#include "compiled_model.hpp"
#include "op_info.hpp"
#include "precision_pass.hpp"

namespace asc::npusim {

struct ValueLayout {
  Format format = Format::ND;
  Shape device_shape;  // `format`'s shape, padded to whole C0 blocks / fractals
};

// C0 of NC1HWC0 and the fractal formats: 32 bytes of `dtype` (16 for fp16, 32 for int8).
std::int64_t c0_for(DType dtype);

// Layouts of every value in `infos` (one profile's static types). `precision` gives each
// node's unit and each value's device dtype.
std::unordered_map<std::string, ValueLayout> choose_layouts(const Graph& graph,
                                                            const std::unordered_map<std::string, ValueInfo>& infos,
                                                            const PrecisionResult& precision, const OpInfoTable& op_info,
                                                            const CompileOptions& options);

}  // namespace asc::npusim
