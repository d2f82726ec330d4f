#include "conv/convolution.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include <asc/sdk/parallel.hpp>
#include <asc/sdk/vector_math.hpp>

#include "common/gemm.hpp"

namespace asc::ops {
namespace {

// Visits the column matrix of im2col for output positions [begin, end) (a block of columns; each
// row of the block holds end - begin values) row by row and output row by output row. For each
// run of output positions along the width whose image position is inside the image it calls
// inside(column_offset, image_offset, count, image_step); for each run that falls in padding it
// calls padding(column_offset, count).
template <class Inside, class Padding>
void walk_columns(const Window3& w, std::int64_t channels, std::int64_t begin, std::int64_t end, Inside&& inside,
                  Padding&& padding) {
  if (end <= begin) return;
  const std::int64_t out_w = w.output[2];
  const std::int64_t width = end - begin;
  const std::int64_t first_line = begin / out_w;  // output lines (od, oh) the block touches
  const std::int64_t last_line = (end - 1) / out_w;
  std::int64_t row = 0;
  for (std::int64_t c = 0; c < channels; ++c) {
    const std::int64_t plane = c * w.input_size();
    for (std::int64_t kd = 0; kd < w.kernel[0]; ++kd)
      for (std::int64_t kh = 0; kh < w.kernel[1]; ++kh)
        for (std::int64_t kw = 0; kw < w.kernel[2]; ++kw, ++row) {
          // Output widths whose image column ow*stride - pad + kw*dilation lies in [0, width).
          const std::int64_t shift = kw * w.dilation[2] - w.pad_begin[2];
          const std::int64_t lo = std::clamp<std::int64_t>(window_ceil_div(-shift, w.stride[2]), 0, out_w);
          const std::int64_t hi =
              std::clamp<std::int64_t>(window_ceil_div(w.input[2] - shift, w.stride[2]), lo, out_w);
          for (std::int64_t line = first_line; line <= last_line; ++line) {
            const std::int64_t od = line / w.output[1];
            const std::int64_t oh = line % w.output[1];
            const std::int64_t line_start = line * out_w;
            const std::int64_t from = std::max<std::int64_t>(0, begin - line_start);
            const std::int64_t to = std::min(out_w, end - line_start);
            const std::int64_t column = row * width + line_start - begin;  // + ow
            const std::int64_t id = od * w.stride[0] - w.pad_begin[0] + kd * w.dilation[0];
            const std::int64_t ih = oh * w.stride[1] - w.pad_begin[1] + kh * w.dilation[1];
            if (id < 0 || id >= w.input[0] || ih < 0 || ih >= w.input[1]) {
              padding(column + from, to - from);
              continue;
            }
            const std::int64_t inside_from = std::clamp(lo, from, to);
            const std::int64_t inside_to = std::clamp(hi, inside_from, to);
            if (inside_from > from) padding(column + from, inside_from - from);
            if (inside_to > inside_from)
              inside(column + inside_from,
                     plane + (id * w.input[1] + ih) * w.input[2] + inside_from * w.stride[2] + shift,
                     inside_to - inside_from, w.stride[2]);
            if (to > inside_to) padding(column + inside_to, to - inside_to);
          }
        }
  }
}

// Runs fn(begin, end) over [0, rows) in at most `threads` blocks.
template <class Fn>
void split_rows(int threads, std::int64_t rows, Fn&& fn) {
  if (rows <= 0) return;
  const std::int64_t blocks = std::clamp<std::int64_t>(threads, 1, std::max<std::int64_t>(rows, 1));
  const std::int64_t per_block = (rows + blocks - 1) / blocks;
  parallel_for(threads, (rows + per_block - 1) / per_block, [&](std::int64_t block) {
    fn(block * per_block, std::min(rows, (block + 1) * per_block));
  });
}

template <class T>
void add_bias(const T* bias, std::int64_t channels, std::int64_t plane_size, T* planes) {
  for (std::int64_t m = 0; m < channels; ++m) {
    const T b = bias[m];
    T* plane = planes + m * plane_size;
    for (std::int64_t i = 0; i < plane_size; ++i) plane[i] += b;
  }
}

// Scratch space for column matrices, one per thread and kept between calls (no allocation, and
// no page faults, in the steady state of a model run); it holds the largest matrix seen so far.
template <class T>
T* scratch(std::size_t elements) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < elements) buffer.resize(elements);
  return buffer.data();
}

// Columns per block of the column-tiled product. Every block's GEMM packs the whole weight matrix
// again (Eigen packs both operands per call), so fewer, larger blocks pack less; the block's
// column matrix (rows x block) still stays in a core's L2 and the shared L3 between im2col
// writing it and the GEMM reading it. Measured on ResNet-50 (2 threads, Zen 4: 1 MB L2 per core,
// 32 MB L3): 1.5 MB blocks ran 3-5 % faster than 384 KB (L2-sized) ones, 4 MB ones slower again.
constexpr std::int64_t kColumnBlockBytes = 1536 * 1024;
constexpr std::int64_t kMinColumnBlock = 64;

std::int64_t column_block(std::int64_t rows, std::size_t element_bytes) {
  const std::int64_t fitting = kColumnBlockBytes / (std::max<std::int64_t>(rows, 1) * static_cast<std::int64_t>(element_bytes));
  return std::max(kMinColumnBlock, fitting / 16 * 16);
}

// A depthwise group (one input and one output channel) computed directly: each output row starts
// at the bias and every tap in the image adds weight * pixel along the row (a contiguous, vector
// loop for unit stride). im2col + GEMM would unfold kernel_size copies of the plane for a 1-row
// product, one parallel_for per channel.
template <class T>
[[gnu::always_inline]] inline void depthwise_plane(const Window3& w, const T* image, const T* weights, T bias,
                                                   T* out) {
  const std::int64_t out_w = w.output[2];
  for (std::int64_t od = 0; od < w.output[0]; ++od)
    for (std::int64_t oh = 0; oh < w.output[1]; ++oh) {
      T* row = out + (od * w.output[1] + oh) * out_w;
      std::fill(row, row + out_w, bias);
      for (std::int64_t kd = 0; kd < w.kernel[0]; ++kd) {
        const std::int64_t id = od * w.stride[0] - w.pad_begin[0] + kd * w.dilation[0];
        if (id < 0 || id >= w.input[0]) continue;
        for (std::int64_t kh = 0; kh < w.kernel[1]; ++kh) {
          const std::int64_t ih = oh * w.stride[1] - w.pad_begin[1] + kh * w.dilation[1];
          if (ih < 0 || ih >= w.input[1]) continue;
          const T* in_row = image + (id * w.input[1] + ih) * w.input[2];
          for (std::int64_t kw = 0; kw < w.kernel[2]; ++kw) {
            const T weight = weights[(kd * w.kernel[1] + kh) * w.kernel[2] + kw];
            // Output columns whose image column ow * stride + shift lies in [0, width).
            const std::int64_t shift = kw * w.dilation[2] - w.pad_begin[2];
            const std::int64_t lo = std::clamp<std::int64_t>(window_ceil_div(-shift, w.stride[2]), 0, out_w);
            const std::int64_t hi =
                std::clamp<std::int64_t>(window_ceil_div(w.input[2] - shift, w.stride[2]), lo, out_w);
            if (w.stride[2] == 1) {
              const T* in = in_row + shift;
              for (std::int64_t ow = lo; ow < hi; ++ow) row[ow] += weight * in[ow];
            } else {
              for (std::int64_t ow = lo; ow < hi; ++ow) row[ow] += weight * in_row[ow * w.stride[2] + shift];
            }
          }
        }
      }
    }
}

// A 2-D 3x3 window without dilation (MobileNet's depthwise layers), stride 1 or 2: each output
// element sums its nine taps in one pass over the row, where the general plane above makes nine
// passes, each with its own bounds (which dominated on 7- and 14-wide rows). Rows above or below
// the image read zeros; columns whose window leaves the image are summed one by one.
bool is_depthwise_3x3(const Window3& w) {
  return w.input[0] == 1 && w.kernel == std::array<std::int64_t, 3>{1, 3, 3} &&
         w.dilation == std::array<std::int64_t, 3>{1, 1, 1} && w.stride[1] == w.stride[2] &&
         (w.stride[2] == 1 || w.stride[2] == 2);
}

[[gnu::always_inline]] inline void depthwise_3x3_plane(const Window3& w, const float* image, const float* weights,
                                                       float bias, float* out) {
  const std::int64_t in_h = w.input[1], in_w = w.input[2], out_h = w.output[1], out_w = w.output[2];
  const std::int64_t stride = w.stride[2], pad_top = w.pad_begin[1], pad_left = w.pad_begin[2];
  thread_local std::vector<float> zeros;
  if (static_cast<std::int64_t>(zeros.size()) < in_w) zeros.assign(static_cast<std::size_t>(in_w), 0.0f);
  // Output columns whose three taps all lie in [0, in_w).
  const std::int64_t lo = std::clamp<std::int64_t>(window_ceil_div(pad_left, stride), 0, out_w);
  const std::int64_t last_start = in_w - 3 + pad_left;  // of the rightmost window inside, times stride
  const std::int64_t hi = last_start < 0 ? lo : std::clamp<std::int64_t>(last_start / stride + 1, lo, out_w);
  for (std::int64_t oh = 0; oh < out_h; ++oh) {
    const float* rows[3];
    for (std::int64_t kh = 0; kh < 3; ++kh) {
      const std::int64_t ih = oh * stride - pad_top + kh;
      rows[kh] = ih >= 0 && ih < in_h ? image + ih * in_w : zeros.data();
    }
    float* row = out + oh * out_w;
    auto edge = [&](std::int64_t ow) {
      float sum = bias;
      for (std::int64_t kh = 0; kh < 3; ++kh)
        for (std::int64_t kw = 0; kw < 3; ++kw) {
          const std::int64_t iw = ow * stride - pad_left + kw;
          if (iw >= 0 && iw < in_w) sum += weights[kh * 3 + kw] * rows[kh][iw];
        }
      row[ow] = sum;
    };
    for (std::int64_t ow = 0; ow < lo; ++ow) edge(ow);
    const float* r0 = rows[0];
    const float* r1 = rows[1];
    const float* r2 = rows[2];
#pragma omp simd
    for (std::int64_t ow = lo; ow < hi; ++ow) {
      const std::int64_t c = ow * stride - pad_left;
      row[ow] = bias + weights[0] * r0[c] + weights[1] * r0[c + 1] + weights[2] * r0[c + 2] +
                weights[3] * r1[c] + weights[4] * r1[c + 1] + weights[5] * r1[c + 2] + weights[6] * r2[c] +
                weights[7] * r2[c + 1] + weights[8] * r2[c + 2];
    }
    for (std::int64_t ow = hi; ow < out_w; ++ow) edge(ow);
  }
}

// The float32 plane compiled for AVX-512, AVX2 + FMA and the baseline, chosen by the CPU at load
// (the rest of the plugin targets baseline x86-64; GEMM has its own variants).
ASC_VECTOR_CLONES void depthwise_plane_f32(const Window3& w, const float* image, const float* weights, float bias,
                                           float* out) {
  if (is_depthwise_3x3(w))
    depthwise_3x3_plane(w, image, weights, bias, out);
  else
    depthwise_plane(w, image, weights, bias, out);
}

template <class T>
void depthwise(const Window3& w, const T* image, const T* weights, T bias, T* out) {
  if constexpr (std::is_same_v<T, float>)
    depthwise_plane_f32(w, image, weights, bias, out);
  else
    depthwise_plane(w, image, weights, bias, out);
}

}  // namespace

template <class T>
void im2col(const Window3& window, const T* image, std::int64_t channels, std::int64_t begin, std::int64_t end,
            T* columns) {
  walk_columns(
      window, channels, begin, end,
      [&](std::int64_t column, std::int64_t pixel, std::int64_t count, std::int64_t step) {
        T* out = columns + column;
        const T* in = image + pixel;
        if (step == 1)
          std::copy(in, in + count, out);
        else
          for (std::int64_t i = 0; i < count; ++i) out[i] = in[i * step];
      },
      [&](std::int64_t column, std::int64_t count) {
        std::fill(columns + column, columns + column + count, T(0));
      });
}

template <class T>
void col2im(const Window3& window, const T* columns, std::int64_t channels, T* image) {
  walk_columns(
      window, channels, 0, window.output_size(),
      [&](std::int64_t column, std::int64_t pixel, std::int64_t count, std::int64_t step) {
        const T* in = columns + column;
        T* out = image + pixel;
        for (std::int64_t i = 0; i < count; ++i) out[i * step] += in[i];
      },
      [](std::int64_t, std::int64_t) {});
}

// One group of one batch item: out[M, positions] = weights[M, rows] * columns[rows, positions]
// (+ bias), where columns is the image itself for a pointwise window and im2col's otherwise.
// Large outputs are cut into column blocks, each unfolded and multiplied by one thread while it
// is in cache; small ones (the deep layers' 7x7 and 14x14 maps) are unfolded whole and their
// output channels split between the threads.
template <class T>
void convolve_group(const Window3& window, bool pointwise, const T* image, std::int64_t channels, const T* weights,
                    std::int64_t out_channels, const T* bias, T* out, int threads) {
  const std::int64_t rows = channels * window.kernel_size();
  const std::int64_t positions = window.output_size();
  // out[row_begin:row_end, begin:end] from a column matrix b holding those positions.
  auto multiply = [&](std::int64_t row_begin, std::int64_t row_end, std::int64_t begin, std::int64_t end, const T* b,
                      std::int64_t ldb) {
    T* c = out + row_begin * positions + begin;
    if (bias != nullptr)
      for (std::int64_t m = row_begin; m < row_end; ++m)
        std::fill(c + (m - row_begin) * positions, c + (m - row_begin) * positions + (end - begin), bias[m]);
    gemm(false, false, row_end - row_begin, end - begin, rows, T(1), weights + row_begin * rows, rows, b, ldb,
         bias != nullptr ? T(1) : T(0), c, positions);
  };
  std::int64_t block = column_block(rows, sizeof(T));
  std::int64_t blocks = (positions + block - 1) / block;
  if (blocks >= 2 * threads) {
    // As many blocks as a multiple of the thread count, so that no thread waits for another's
    // last block (5 blocks on 2 threads left one idle for a fifth of the layer).
    const std::int64_t balanced = (blocks + threads - 1) / threads * threads;
    block = ((positions + balanced - 1) / balanced + 15) / 16 * 16;
    blocks = (positions + block - 1) / block;
  }
  if (blocks >= 2 * threads || threads == 1) {
    parallel_for(threads, blocks, [&](std::int64_t index) {
      const std::int64_t begin = index * block;
      const std::int64_t end = std::min(positions, begin + block);
      if (pointwise) {
        multiply(0, out_channels, begin, end, image + begin, positions);
        return;
      }
      T* columns = scratch<T>(static_cast<std::size_t>(rows * (end - begin)));
      im2col(window, image, channels, begin, end, columns);
      multiply(0, out_channels, begin, end, columns, end - begin);
    });
    return;
  }
  const T* matrix = image;
  if (!pointwise) {
    T* columns = scratch<T>(static_cast<std::size_t>(rows * positions));
    const std::int64_t per_channel = window.kernel_size() * positions;
    split_rows(threads, channels, [&](std::int64_t begin, std::int64_t end) {
      im2col(window, image + begin * window.input_size(), end - begin, 0, positions, columns + begin * per_channel);
    });
    matrix = columns;
  }
  split_rows(threads, out_channels,
             [&](std::int64_t begin, std::int64_t end) { multiply(begin, end, 0, positions, matrix, positions); });
}

template <class T>
void convolve(const ConvGeometry& geometry, const T* x, const T* w, const T* bias, T* y, int threads) {
  const Window3& window = geometry.window;
  const std::int64_t group_in = geometry.in_channels / geometry.group;
  const std::int64_t group_out = geometry.out_channels / geometry.group;
  const std::int64_t rows = group_in * window.kernel_size();
  // A 1x1 window with unit stride and no padding is already its own column matrix.
  const bool pointwise = window.kernel_size() == 1 && window.stride == std::array<std::int64_t, 3>{1, 1, 1} &&
                         window.pad_begin == std::array<std::int64_t, 3>{0, 0, 0} &&
                         window.input == window.output;
  if (group_in == 1 && group_out == 1 && geometry.group > 1) {  // depthwise: planes shared between the threads
    parallel_for(threads, geometry.batch * geometry.group, [&](std::int64_t plane) {
      const std::int64_t n = plane / geometry.group;
      const std::int64_t g = plane % geometry.group;
      depthwise(window, x + (n * geometry.in_channels + g) * window.input_size(), w + g * rows,
                      bias != nullptr ? bias[g] : T(0), y + (n * geometry.out_channels + g) * window.output_size());
    });
    return;
  }
  auto image = [&](std::int64_t n, int image_threads) {
    for (std::int64_t g = 0; g < geometry.group; ++g)
      convolve_group(window, pointwise, x + (n * geometry.in_channels + g * group_in) * window.input_size(), group_in,
                     w + g * group_out * rows, group_out, bias != nullptr ? bias + g * group_out : nullptr,
                     y + (n * geometry.out_channels + g * group_out) * window.output_size(), image_threads);
  };
  // A batch of at least two images per thread: whole images per thread, each GEMM on all of an
  // image's positions and channels (splitting one image's small deep layers between threads
  // gives each a thin, slower product and a synchronisation per layer and image).
  if (threads > 1 && geometry.batch >= 2 * threads) {
    parallel_for(threads, geometry.batch, [&](std::int64_t n) { image(n, 1); });
    return;
  }
  for (std::int64_t n = 0; n < geometry.batch; ++n) image(n, threads);
}

template <class T>
void transpose_convolve(const ConvGeometry& geometry, const T* x, const T* w, const T* bias, T* y,
                        int threads) {
  const Window3& window = geometry.window;
  const std::int64_t group_in = geometry.in_channels / geometry.group;
  const std::int64_t group_out = geometry.out_channels / geometry.group;
  const std::int64_t rows = group_out * window.kernel_size();
  const std::int64_t x_size = window.output_size();
  const std::int64_t y_size = window.input_size();
  std::vector<T> columns(static_cast<std::size_t>(rows * x_size));
  for (std::int64_t n = 0; n < geometry.batch; ++n) {
    for (std::int64_t g = 0; g < geometry.group; ++g) {
      const T* x_group = x + (n * geometry.in_channels + g * group_in) * x_size;
      const T* w_group = w + g * group_in * rows;
      // columns[(m, kernel offset), x position] = W_g^T * X_g
      split_rows(threads, rows, [&](std::int64_t begin, std::int64_t end) {
        gemm(true, false, end - begin, x_size, group_in, T(1), w_group + begin, rows, x_group, x_size, T(0),
             columns.data() + begin * x_size, x_size);
      });
      T* y_group = y + (n * geometry.out_channels + g * group_out) * y_size;
      col2im(window, columns.data(), group_out, y_group);
      if (bias != nullptr) add_bias(bias + g * group_out, group_out, y_size, y_group);
    }
  }
}

template void im2col<float>(const Window3&, const float*, std::int64_t, std::int64_t, std::int64_t, float*);
template void im2col<double>(const Window3&, const double*, std::int64_t, std::int64_t, std::int64_t, double*);
template void col2im<float>(const Window3&, const float*, std::int64_t, float*);
template void col2im<double>(const Window3&, const double*, std::int64_t, double*);
template void convolve<float>(const ConvGeometry&, const float*, const float*, const float*, float*, int);
template void convolve<double>(const ConvGeometry&, const double*, const double*, const double*, double*,
                               int);
template void transpose_convolve<float>(const ConvGeometry&, const float*, const float*, const float*, float*,
                                        int);
template void transpose_convolve<double>(const ConvGeometry&, const double*, const double*, const double*,
                                         double*, int);

}  // namespace asc::ops
