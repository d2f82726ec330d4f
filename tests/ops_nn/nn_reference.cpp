// The float64 references of nn_reference.hpp. Unlike the tests' own code, this file is compiled
// with optimisation (tests/ops_nn/CMakeLists.txt): at -O0 these loops were 85 % of the ops_nn
// binary's time, in every tree. Without contraction into fused multiply-adds, so each product is
// rounded and summed as written.
#include "nn_reference.hpp"

namespace asc::test {

// Output shape and values of Conv(x, w, bias) with explicit pads.
std::vector<double> direct_conv(const std::vector<double>& x, const Shape& x_shape,
                                const std::vector<double>& w, const Shape& w_shape,
                                const std::vector<double>* bias, const ConvSpec& spec, Shape& y_shape) {
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
std::vector<double> scatter_conv_transpose(const std::vector<double>& x, const Shape& x_shape,
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
