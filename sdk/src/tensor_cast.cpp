#include "asc/sdk/error.hpp"
#include "asc/sdk/half.hpp"
#include "asc/sdk/tensor.hpp"
#include "element_access.hpp"

namespace asc {
namespace {

template <class To, class From> void cast_elements(const TensorView& source, To* out) {
  const From* base = reinterpret_cast<const From*>(source.raw());
  if (source.is_contiguous()) {
    const auto count = static_cast<std::size_t>(source.numel());
    for (std::size_t i = 0; i < count; ++i) out[i] = detail::convert_element<To>(base[i]);
    return;
  }
  detail::for_each_offset(source.shape(), source.strides(), [&](std::int64_t offset) {
    *out++ = detail::convert_element<To>(base[offset]);
  });
}

}  // namespace

Tensor Tensor::cast(DType target) const {
  if (!defined()) return {};
  if (target == dtype()) return clone();
  std::size_t bytes = 0;  // every element is written below: no zero-filling first
  if (__builtin_mul_overflow(static_cast<std::size_t>(numel()), dtype_size(target), &bytes))
    throw Error(ErrorCode::MemoryAllocationFailed, "cast of shape " + shape_to_string(shape()) + " is too large");
  Tensor result(Buffer::allocate_uninitialized(bytes), 0, target, shape(), {}, format());
  const auto count = static_cast<std::size_t>(numel());
  // The float <-> float16 pair is the hot one (precision modes): use the F16C bulk path.
  if (is_contiguous() && dtype() == DType::Float32 && target == DType::Float16) {
    convert(std::span<const float>(data<float>(), count), std::span<float16>(result.data<float16>(), count));
    return result;
  }
  if (is_contiguous() && dtype() == DType::Float16 && target == DType::Float32) {
    convert(std::span<const float16>(data<float16>(), count), std::span<float>(result.data<float>(), count));
    return result;
  }
  visit_dtype(target, [&](auto to_tag) {
    using To = typename decltype(to_tag)::type;
    visit_dtype(dtype(), [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      cast_elements<To, From>(view(), result.data<To>());
    });
  });
  return result;
}

}  // namespace asc
