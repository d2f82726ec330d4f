#include "tensor/strided_view.hpp"

namespace asc::ops {

Tensor strided_view(const Tensor& base, std::int64_t first, Shape shape, Shape strides) {
  const auto element = static_cast<std::int64_t>(dtype_size(base.dtype()));
  const std::int64_t base_offset = base.view().raw() - base.buffer()->data();
  // An empty view may start one past the end (e.g. a slice starting at the dimension's size).
  if (num_elements(shape) == 0) first = 0;
  return Tensor(base.buffer(), static_cast<std::size_t>(base_offset + first * element), base.dtype(),
                std::move(shape), std::move(strides));
}

Tensor copy_strided(const Tensor& base, std::int64_t first, Shape shape, Shape strides) {
  return strided_view(base, first, std::move(shape), std::move(strides)).clone();
}

}  // namespace asc::ops
