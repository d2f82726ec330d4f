#include "conv/convolution.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "common/gemm.hpp"

namespace asc::ops {
namespace {

// Visits the column matrix of im2col row by row and output row by output row. For each run of
// output positions along the width whose image position is inside the image it calls
// inside(column_offset, image_offset, count, image_step); for each run that falls in padding it
// calls padding(column_offset, count).
template <class Inside, class Padding>
void walk_columns(const Window3& w, std::int64_t channels, Inside&& inside, Padding&& padding) {
  const std::int64_t out_w = w.output[2];
  const std::int64_t column_rows_stride = w.output_size();
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
          std::int64_t column = row * column_rows_stride;
          for (std::int64_t od = 0; od < w.output[0]; ++od) {
            const std::int64_t id = od * w.stride[0] - w.pad_begin[0] + kd * w.dilation[0];
            for (std::int64_t oh = 0; oh < w.output[1]; ++oh, column += out_w) {
              const std::int64_t ih = oh * w.stride[1] - w.pad_begin[1] + kh * w.dilation[1];
              if (id < 0 || id >= w.input[0] || ih < 0 || ih >= w.input[1]) {
                padding(column, out_w);
                continue;
              }
              if (lo > 0) padding(column, lo);
              if (hi > lo)
                inside(column + lo, plane + (id * w.input[1] + ih) * w.input[2] + lo * w.stride[2] + shift,
                       hi - lo, w.stride[2]);
              if (hi < out_w) padding(column + hi, out_w - hi);
            }
          }
        }
  }
}

// Runs fn(begin, end) over [0, rows) in at most `threads` blocks, the first on the calling thread.
template <class Fn>
void split_rows(int threads, std::int64_t rows, Fn&& fn) {
  const std::int64_t blocks = std::clamp<std::int64_t>(threads, 1, std::max<std::int64_t>(rows, 1));
  const std::int64_t per_block = (rows + blocks - 1) / blocks;
  std::vector<std::thread> workers;
  for (std::int64_t begin = per_block; begin < rows; begin += per_block)
    workers.emplace_back(fn, begin, std::min(rows, begin + per_block));
  fn(std::int64_t{0}, std::min(rows, per_block));
  for (std::thread& worker : workers) worker.join();
}

template <class T>
void add_bias(const T* bias, std::int64_t channels, std::int64_t plane_size, T* planes) {
  for (std::int64_t m = 0; m < channels; ++m) {
    const T b = bias[m];
    T* plane = planes + m * plane_size;
    for (std::int64_t i = 0; i < plane_size; ++i) plane[i] += b;
  }
}

}  // namespace

template <class T>
void im2col(const Window3& window, const T* image, std::int64_t channels, T* columns) {
  walk_columns(
      window, channels,
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
      window, channels,
      [&](std::int64_t column, std::int64_t pixel, std::int64_t count, std::int64_t step) {
        const T* in = columns + column;
        T* out = image + pixel;
        for (std::int64_t i = 0; i < count; ++i) out[i * step] += in[i];
      },
      [](std::int64_t, std::int64_t) {});
}

template <class T>
void convolve(const ConvGeometry& geometry, const T* x, const T* w, const T* bias, T* y, int threads) {
  const Window3& window = geometry.window;
  const std::int64_t group_in = geometry.in_channels / geometry.group;
  const std::int64_t group_out = geometry.out_channels / geometry.group;
  const std::int64_t rows = group_in * window.kernel_size();
  const std::int64_t in_size = window.input_size();
  const std::int64_t out_size = window.output_size();
  // A 1x1 window with unit stride and no padding is already its own column matrix.
  const bool pointwise = window.kernel_size() == 1 && window.stride == std::array<std::int64_t, 3>{1, 1, 1} &&
                         window.pad_begin == std::array<std::int64_t, 3>{0, 0, 0} &&
                         window.input == window.output;
  std::vector<T> columns(pointwise ? 0 : static_cast<std::size_t>(rows * out_size));
  for (std::int64_t n = 0; n < geometry.batch; ++n) {
    for (std::int64_t g = 0; g < geometry.group; ++g) {
      const T* image = x + (n * geometry.in_channels + g * group_in) * in_size;
      const T* matrix = image;
      if (!pointwise) {
        im2col(window, image, group_in, columns.data());
        matrix = columns.data();
      }
      T* out = y + (n * geometry.out_channels + g * group_out) * out_size;
      const T* weights = w + g * group_out * rows;
      split_rows(threads, group_out, [&](std::int64_t begin, std::int64_t end) {
        gemm(false, false, end - begin, out_size, rows, T(1), weights + begin * rows, rows, matrix, out_size,
             T(0), out + begin * out_size, out_size);
      });
      if (bias != nullptr) add_bias(bias + g * group_out, group_out, out_size, out);
    }
  }
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

template void im2col<float>(const Window3&, const float*, std::int64_t, float*);
template void im2col<double>(const Window3&, const double*, std::int64_t, double*);
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
