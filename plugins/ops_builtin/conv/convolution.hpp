// Grouped convolution kernels on contiguous N,C,spatial data: im2col/col2im over a Window3 and
// one GEMM per group per batch item (common/gemm.hpp).
#pragma once

#include <cstdint>

#include "common/conv_pool_window.hpp"

namespace asc::ops {

// Unfolds `channels` image planes of window.input into rows (channel, kernel offset) of the
// window.output positions [begin, end) (row-major positions); padding reads as zero. columns holds
// channels * kernel * (end - begin) values.
template <class T>
void im2col(const Window3& window, const T* image, std::int64_t channels, std::int64_t begin, std::int64_t end,
            T* columns);

// The adjoint of im2col: adds every column value into the image position it was read from.
// The image (channels planes of window.input) must be initialised by the caller.
template <class T>
void col2im(const Window3& window, const T* columns, std::int64_t channels, T* image);

struct ConvGeometry {
  std::int64_t batch = 1;
  std::int64_t in_channels = 0;
  std::int64_t out_channels = 0;
  std::int64_t group = 1;
  Window3 window;  // input/output are the spatial sizes of x and y
};

// y[N, M, out] = sum over the group's channels and the kernel of x[N, C, in] * w[M, C/group, kernel],
// plus bias[M] when bias is not null. `threads` share each group's work (column blocks of the
// output, or its output channels when the output is small).
template <class T>
void convolve(const ConvGeometry& geometry, const T* x, const T* w, const T* bias, T* y, int threads = 1);

// The transposed convolution: y[N, M, out] from x[N, C, in] and w[C, M/group, kernel], plus bias[M]
// when not null. Here window.input holds Y's spatial sizes and window.output X's: col2im walks Y
// as the image. y must be zero-filled.
template <class T>
void transpose_convolve(const ConvGeometry& geometry, const T* x, const T* w, const T* bias, T* y,
                        int threads = 1);

}  // namespace asc::ops
