// Logical sizes of Cube operators read back from msprof's operand shapes and formats.
#pragma once

#include <asc/sdk/profiling.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace asc::profiler {

// Channels of a convolution's data input (operand 0): NCHW/NCDHW/NCL and ND take dim 1, NHWC/NDHWC
// the last. nullopt for NC1HWC0-style formats, where C is already padded to C1*C0 and the
// model's channel count cannot be recovered, or when the shape is missing.
std::optional<std::int64_t> conv_input_channels(const ProfileEvent& event);
// Batch (dim 0) of a convolution's data input; any format keeps N first.
std::optional<std::int64_t> conv_batch(const ProfileEvent& event);

struct MatMulDims {
  std::int64_t batch = 1, m = 0, n = 0, k = 0;
  std::int64_t work() const { return batch * m * n * k; }  // multiply-accumulates
  std::string text() const;                                // "batch 12, M 128, N 128, K 64"
};
// From the output shape (M, N and batch) and input 0 (K); FRACTAL_NZ shapes are read as their
// ND matrix. nullopt when the shapes do not say.
std::optional<MatMulDims> matmul_dims(const ProfileEvent& event);

// The Cube's block along K/C: 32 for 8-bit inputs, 16 otherwise (C0 of NC1HWC0).
std::int64_t cube_block_for(const ProfileEvent& event);

}  // namespace asc::profiler
