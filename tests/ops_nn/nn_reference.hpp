// Independent float64 references for the tests: direct (un-lowered) convolution and transposed
// convolution as a scatter, on explicit pads, written with plain index loops.
#pragma once

#include <cstdint>
#include <vector>

#include <asc/sdk/tensor.hpp>

namespace asc::test {

// Calls fn(index) for every multi-index of `shape` in row-major order.
template <class Fn>
void for_all_indices(const Shape& shape, Fn&& fn) {
  const std::int64_t total = num_elements(shape);
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::int64_t n = 0; n < total; ++n) {
    fn(index);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

inline std::int64_t flat_offset(const Shape& shape, const std::vector<std::int64_t>& index) {
  std::int64_t offset = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) offset = offset * shape[d] + index[d];
  return offset;
}

struct ConvSpec {
  std::int64_t group = 1;
  std::vector<std::int64_t> strides, dilations, pads_begin, pads_end;  // one per spatial axis
};

// Output shape and values of Conv(x, w, bias) with explicit pads.
inline std::vector<double> direct_conv(const std::vector<double>& x, const Shape& x_shape,
                                       const std::vector<double>& w, const Shape& w_shape,
                                       const std::vector<double>* bias, const ConvSpec& spec,
                                       Shape& y_shape) {
  const std::size_t spatial = x_shape.size() - 2;
  y_shape = {x_shape[0], w_shape[0]};
  for (std::size_t a = 0; a < spatial; ++a) {
    const std::int64_t extent = (w_shape[2 + a] - 1) * spec.dilations[a] + 1;
    y_shape.push_back((x_shape[2 + a] + spec.pads_begin[a] + spec.pads_end[a] - extent) / spec.strides[a] +
                      1);
  }
  const std::int64_t in_per_group = x_shape[1] / spec.group;
  const std::int64_t out_per_group = w_shape[0] / spec.group;
  const Shape kernel_shape(w_shape.begin() + 1, w_shape.end());  // [C/group, k...]
  std::vector<double> y(static_cast<std::size_t>(num_elements(y_shape)), 0.0);
  for_all_indices(y_shape, [&](const std::vector<std::int64_t>& o) {
    const std::int64_t n = o[0], m = o[1], g = m / out_per_group;
    double sum = bias ? (*bias)[static_cast<std::size_t>(m)] : 0.0;
    for_all_indices(kernel_shape, [&](const std::vector<std::int64_t>& k) {
      // Row-major offsets of x[n, g * C/group + k[0], pos...] and w[m, k...], built axis by axis
      // as flat_offset does (no index vectors: this runs once per tap, millions of times).
      std::int64_t x_offset = n * x_shape[1] + g * in_per_group + k[0];
      for (std::size_t a = 0; a < spatial; ++a) {
        const std::int64_t pos =
            o[2 + a] * spec.strides[a] - spec.pads_begin[a] + k[1 + a] * spec.dilations[a];
        if (pos < 0 || pos >= x_shape[2 + a]) return;
        x_offset = x_offset * x_shape[2 + a] + pos;
      }
      std::int64_t w_offset = m;
      for (std::size_t d = 0; d < k.size(); ++d) w_offset = w_offset * w_shape[1 + d] + k[d];
      sum += x[static_cast<std::size_t>(x_offset)] * w[static_cast<std::size_t>(w_offset)];
    });
    y[static_cast<std::size_t>(flat_offset(y_shape, o))] = sum;
  });
  return y;
}

// ConvTranspose(x, w, bias) as a scatter: every x element times every weight of its group is added
// at output position in * stride - pad_begin + k * dilation. `y_spatial` gives the output sizes.
inline std::vector<double> scatter_conv_transpose(const std::vector<double>& x, const Shape& x_shape,
                                                  const std::vector<double>& w, const Shape& w_shape,
                                                  const std::vector<double>* bias, const ConvSpec& spec,
                                                  const Shape& y_spatial, Shape& y_shape) {
  const std::size_t spatial = x_shape.size() - 2;
  const std::int64_t in_per_group = x_shape[1] / spec.group;
  const std::int64_t out_per_group = w_shape[1];
  y_shape = {x_shape[0], out_per_group * spec.group};
  y_shape.insert(y_shape.end(), y_spatial.begin(), y_spatial.end());
  std::vector<double> y(static_cast<std::size_t>(num_elements(y_shape)), 0.0);
  const Shape kernel_shape(w_shape.begin() + 1, w_shape.end());  // [M/group, k...]
  for_all_indices(x_shape, [&](const std::vector<std::int64_t>& i) {
    const std::int64_t n = i[0], c = i[1], g = c / in_per_group;
    const double value = x[static_cast<std::size_t>(flat_offset(x_shape, i))];
    for_all_indices(kernel_shape, [&](const std::vector<std::int64_t>& k) {
      std::vector<std::int64_t> yi{n, g * out_per_group + k[0]};
      for (std::size_t a = 0; a < spatial; ++a) {
        const std::int64_t pos =
            i[2 + a] * spec.strides[a] - spec.pads_begin[a] + k[1 + a] * spec.dilations[a];
        if (pos < 0 || pos >= y_spatial[a]) return;
        yi.push_back(pos);
      }
      std::vector<std::int64_t> wi{c};
      wi.insert(wi.end(), k.begin(), k.end());
      y[static_cast<std::size_t>(flat_offset(y_shape, yi))] +=
          value * w[static_cast<std::size_t>(flat_offset(w_shape, wi))];
    });
  });
  if (bias)
    for_all_indices(y_shape, [&](const std::vector<std::int64_t>& o) {
      y[static_cast<std::size_t>(flat_offset(y_shape, o))] += (*bias)[static_cast<std::size_t>(o[1])];
    });
  return y;
}

}  // namespace asc::test
