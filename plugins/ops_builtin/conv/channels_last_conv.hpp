// Convolution on channels-last activations (an [N, C, H, W] tensor laid out N, H, W, C) with
// oneDNN's direct convolution (brgconv on AVX-512 machines, its jit kernels elsewhere): 1.31-1.36x
// the throughput of im2col + GEMM over ResNet-50's layers (BENCHMARKS.md, session 8), with no
// column matrix. On AVX-512 machines, 3x3 stride-1 layers of 64-128 channels and at least 784
// output pixels an image run oneDNN's Winograd kernels instead (winograd_suits in the .cpp:
// ResNet-50's 56x56 and 28x28 3x3 layers about 30 % faster in place).
// Conv takes this path when its readers take channels-last input too, so the activations stay
// channels-last from one layer to the next (KernelContext::channels_last_outputs).
//
// The weights are reordered once into the primitive's blocked layout and the primitives built
// once per input shape, kept in the step's KernelState (conv.cpp); the kernel's threads each run
// one primitive on a share of the output (whole images, bands of rows of an image, or a single
// image's blocks of output channels). However the work is shared out, each output is computed by
// the same operations, so the result does not depend on the thread count or the batch.
#pragma once

#include <cstddef>
#include <memory>

#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/tensor.hpp>

#include "conv/convolution.hpp"

namespace asc::ops {

// Whether convolve_channels_last runs this convolution: float32, two spatial axes, padding
// smaller than the dilated kernel, and a build with oneDNN.
bool channels_last_conv_available(const ConvGeometry& geometry, std::size_t spatial_rank, DType dtype);

// The reordered weights and the primitives of one Conv step, kept between its runs when its
// weights are the same tensor at every run (made by make_conv_primitives; safe for two runs at
// once).
class ConvPrimitives;
std::shared_ptr<ConvPrimitives> make_conv_primitives();

// conv(x, w) + bias as a new channels-last tensor [N, M, OH, OW]. x may have any layout (it is
// made channels-last first); w is [M, C/group, KH, KW], bias [M] or nullptr. With `kept` (w is
// the same tensor at every call with it), the reordered weights and the primitives are kept
// there; with nullptr they are made for this call. An undefined tensor when oneDNN has only its
// reference kernel for this shape (slower than the caller's im2col path, which then runs
// instead). A non-null `epilogue` runs on every element of the result, on each thread's piece
// right after the thread computed it (KernelContext::output_epilogue); `steps`, when not null,
// describe it (KernelContext::output_epilogue_steps), and the 1x1 kernel folds them into its stores.
Tensor convolve_channels_last(const ConvGeometry& geometry, const Tensor& x, const Tensor& w, const Tensor* bias,
                              int threads, ConvPrimitives* kept, const OutputEpilogue* epilogue = nullptr,
                              const OutputEpilogueSteps* steps = nullptr);

}  // namespace asc::ops
