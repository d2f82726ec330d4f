// Independent float64 references for the tests: direct (un-lowered) convolution and transposed
// convolution as a scatter, on explicit pads, written with plain index loops (nn_reference.cpp).
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
std::vector<double> direct_conv(const std::vector<double>& x, const Shape& x_shape,
                                const std::vector<double>& w, const Shape& w_shape,
                                const std::vector<double>* bias, const ConvSpec& spec, Shape& y_shape);

// ConvTranspose(x, w, bias) as a scatter: every x element times every weight of its group is added
// at output position in * stride - pad_begin + k * dilation. `y_spatial` gives the output sizes.
std::vector<double> scatter_conv_transpose(const std::vector<double>& x, const Shape& x_shape,
                                           const std::vector<double>& w, const Shape& w_shape,
                                           const std::vector<double>* bias, const ConvSpec& spec,
                                           const Shape& y_spatial, Shape& y_shape);

}  // namespace asc::test
