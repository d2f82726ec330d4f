#include "asc/sdk/tensor.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

#include "asc/sdk/error.hpp"
#include "buffer_arena.hpp"
#include "element_access.hpp"
#include "strided_copy.hpp"

namespace asc {
namespace {

constexpr std::array<std::pair<std::string_view, Format>, 6> kFormats{{
    {"ND", Format::ND},
    {"NCHW", Format::NCHW},
    {"NHWC", Format::NHWC},
    {"NC1HWC0", Format::NC1HWC0},
    {"FRACTAL_Z", Format::FRACTAL_Z},
    {"FRACTAL_NZ", Format::FRACTAL_NZ},
}};

// Element values of any view in row-major order, converted to Out.
template <class Out> std::vector<Out> gather(const TensorView& view) {
  std::vector<Out> result;
  result.reserve(static_cast<std::size_t>(view.numel()));
  visit_dtype(view.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* base = reinterpret_cast<const T*>(view.raw());
    detail::for_each_offset(view.shape(), view.strides(), [&](std::int64_t offset) {
      result.push_back(detail::convert_element<Out>(base[offset]));
    });
  });
  return result;
}

}  // namespace

std::string_view format_name(Format format) {
  for (const auto& [name, value] : kFormats)
    if (value == format) return name;
  return "ND";
}

std::optional<Format> parse_format(std::string_view text) {
  for (const auto& [name, value] : kFormats) {
    if (name.size() != text.size()) continue;
    bool equal = true;
    for (std::size_t i = 0; i < name.size() && equal; ++i)
      equal = std::toupper(static_cast<unsigned char>(text[i])) == name[i];
    if (equal) return value;
  }
  return std::nullopt;
}

std::int64_t num_elements(const Shape& shape) {
  std::int64_t count = 1;
  for (const std::int64_t dim : shape) {
    if (dim < 0) throw Error(ErrorCode::Internal, "shape " + shape_to_string(shape) + " has a negative dimension");
    if (__builtin_mul_overflow(count, dim, &count))
      throw Error(ErrorCode::MemoryAllocationFailed, "shape " + shape_to_string(shape) + " has too many elements");
  }
  return count;
}

Shape contiguous_strides(const Shape& shape) {
  Shape strides(shape.size(), 1);
  std::int64_t stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    // Only a shape with a 0 dimension can overflow here (its other dimensions may be anything, as
    // a fuzzed .npy header showed); it has no element to address, so the stride saturates.
    if (__builtin_mul_overflow(stride, std::max<std::int64_t>(shape[d], 1), &stride))
      stride = std::numeric_limits<std::int64_t>::max();
  }
  return strides;
}

Shape channels_last_strides(const Shape& shape) {
  if (shape.size() < 3) return contiguous_strides(shape);
  // The contiguous strides of [N, spatial..., C], put back in the [N, C, spatial...] order.
  Shape order{shape[0]};
  order.insert(order.end(), shape.begin() + 2, shape.end());
  order.push_back(shape[1]);
  const Shape permuted = contiguous_strides(order);
  Shape strides{permuted[0], permuted.back()};
  strides.insert(strides.end(), permuted.begin() + 1, permuted.end() - 1);
  return strides;
}

std::string shape_to_string(const Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) text += ',';
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

Buffer::Buffer(std::shared_ptr<const void> owner, std::byte* data, std::size_t bytes)
    : owner_(std::move(owner)), data_(data), size_(bytes) {}

std::shared_ptr<Buffer> Buffer::allocate_uninitialized(std::size_t bytes) {
  // At least one byte, so that data() is never null.
  std::shared_ptr<void> memory = detail::allocate_buffer_memory(std::max<std::size_t>(bytes, 1));
  if (memory == nullptr)
    throw Error(ErrorCode::MemoryAllocationFailed, "cannot allocate " + std::to_string(bytes) + " bytes");
  auto* data = static_cast<std::byte*>(memory.get());
  std::shared_ptr<Buffer> buffer = wrap(std::move(memory), data, bytes);
  buffer->owned_ = true;
  return buffer;
}

std::shared_ptr<Buffer> Buffer::allocate(std::size_t bytes) {
  std::shared_ptr<Buffer> buffer = allocate_uninitialized(bytes);
  std::memset(buffer->data(), 0, bytes);
  return buffer;
}

std::shared_ptr<Buffer> Buffer::wrap(std::shared_ptr<const void> owner, std::byte* data, std::size_t bytes) {
  return std::shared_ptr<Buffer>(new Buffer(std::move(owner), data, bytes));
}

TensorView::TensorView(DType dtype, Shape shape, std::byte* data, Format format)
    : dtype_(dtype), shape_(std::move(shape)), strides_(contiguous_strides(shape_)), data_(data), format_(format) {}

TensorView::TensorView(DType dtype, Shape shape, Shape strides, std::byte* data, Format format)
    : dtype_(dtype), shape_(std::move(shape)), strides_(std::move(strides)), data_(data), format_(format) {
  if (strides_.size() != shape_.size())
    throw Error(ErrorCode::Internal, "tensor view of shape " + shape_to_string(shape_) + " has strides " +
                                         shape_to_string(strides_) + " of another rank");
}

bool TensorView::is_contiguous() const {
  // Without elements there is nothing to lay out; and the dimensions after a 0 may multiply past
  // 64 bits (a fuzzed .npy header showed), so that case is settled first.
  if (std::find(shape_.begin(), shape_.end(), 0) != shape_.end()) return true;
  std::int64_t expected = 1;
  for (std::size_t d = shape_.size(); d-- > 0;) {
    if (shape_[d] != 1 && strides_[d] != expected) return false;
    if (__builtin_mul_overflow(expected, shape_[d], &expected)) return false;
  }
  return true;
}

bool TensorView::is_channels_last() const {
  if (shape_.size() < 3) return is_contiguous();
  if (std::find(shape_.begin(), shape_.end(), 0) != shape_.end()) return true;
  const Shape expected = channels_last_strides(shape_);
  for (std::size_t d = 0; d < shape_.size(); ++d)
    if (shape_[d] != 1 && strides_[d] != expected[d]) return false;
  return true;
}

void TensorView::check_type(DType requested) const {
  if (requested != dtype_)
    throw Error(ErrorCode::InputMismatch, "tensor holds " + std::string(dtype_name(dtype_)) + ", accessed as " +
                                              std::string(dtype_name(requested)));
}

void TensorView::check_contiguous() const {
  if (!is_contiguous())
    throw Error(ErrorCode::Internal, "span() needs a contiguous tensor; shape " + shape_to_string(shape_) +
                                         " has strides " + shape_to_string(strides_));
}

Tensor::Tensor(DType dtype, Shape shape, Format format) {
  if (dtype == DType::Undefined) throw_unsupported_dtype(dtype, "Tensor");
  const std::int64_t count = num_elements(shape);
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(count), dtype_size(dtype), &bytes))
    throw Error(ErrorCode::MemoryAllocationFailed, "tensor of shape " + shape_to_string(shape) + " is too large");
  buffer_ = Buffer::allocate(bytes);
  view_ = TensorView(dtype, std::move(shape), buffer_->data(), format);
}

Tensor::Tensor(std::shared_ptr<Buffer> buffer, std::size_t byte_offset, DType dtype, Shape shape, Shape strides,
               Format format) {
  if (buffer == nullptr) throw Error(ErrorCode::Internal, "Tensor: null buffer");
  if (dtype == DType::Undefined) throw_unsupported_dtype(dtype, "Tensor");
  if (strides.empty() && !shape.empty()) strides = contiguous_strides(shape);
  if (strides.size() != shape.size())
    throw Error(ErrorCode::Internal, "Tensor: strides " + shape_to_string(strides) + " do not match shape " +
                                         shape_to_string(shape));
  if (num_elements(shape) > 0) {
    const auto element = static_cast<std::int64_t>(dtype_size(dtype));
    std::int64_t lowest = 0;
    std::int64_t highest = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      const std::int64_t reach = strides[d] * (shape[d] - 1);
      (reach < 0 ? lowest : highest) += reach;
    }
    const auto offset = static_cast<std::int64_t>(byte_offset);
    if (offset + lowest * element < 0 ||
        offset + (highest + 1) * element > static_cast<std::int64_t>(buffer->size()))
      throw Error(ErrorCode::Internal, "Tensor: shape " + shape_to_string(shape) + " with strides " +
                                           shape_to_string(strides) + " at byte offset " + std::to_string(byte_offset) +
                                           " does not fit a buffer of " + std::to_string(buffer->size()) + " bytes");
  } else if (byte_offset > buffer->size()) {
    throw Error(ErrorCode::Internal, "Tensor: byte offset " + std::to_string(byte_offset) + " past the buffer end");
  }
  std::byte* first = buffer->data() + byte_offset;
  buffer_ = std::move(buffer);
  view_ = TensorView(dtype, std::move(shape), std::move(strides), first, format);
}

std::vector<double> Tensor::to_doubles() const { return gather<double>(view_); }

std::vector<std::int64_t> Tensor::to_int64s() const { return gather<std::int64_t>(view_); }

Tensor Tensor::clone() const {
  if (!defined()) return {};
  // Every byte is written below, so the buffer is not zero-filled first.
  Tensor copy(Buffer::allocate_uninitialized(nbytes()), 0, dtype(), shape(), {}, format());
  if (is_contiguous()) {
    std::memcpy(copy.view_.raw(), view_.raw(), nbytes());
    return copy;
  }
  detail::copy_strided(view_, copy.view_.raw());
  return copy;
}

Tensor Tensor::contiguous() const { return is_contiguous() ? *this : clone(); }

Tensor Tensor::channels_last() const {
  if (!defined() || is_channels_last()) return *this;
  if (rank() < 3)
    throw Error(ErrorCode::Internal, "channels_last(): tensor of shape " + shape_to_string(shape()) +
                                         " has no channel axis between batch and spatial axes");
  Tensor copy(Buffer::allocate_uninitialized(nbytes()), 0, dtype(), shape(), channels_last_strides(shape()), format());
  // This view with its axes in the copy's memory order [N, spatial..., C], written row-major.
  Shape order_shape{shape()[0]}, order_strides{strides()[0]};
  for (std::int64_t d = 2; d < rank(); ++d) {
    order_shape.push_back(shape()[static_cast<std::size_t>(d)]);
    order_strides.push_back(strides()[static_cast<std::size_t>(d)]);
  }
  order_shape.push_back(shape()[1]);
  order_strides.push_back(strides()[1]);
  detail::copy_strided(TensorView(dtype(), order_shape, order_strides, view_.raw()), copy.view_.raw());
  return copy;
}

Tensor Tensor::reshaped(Shape shape) const {
  if (!is_contiguous())
    throw Error(ErrorCode::Internal, "reshaped(): tensor of shape " + shape_to_string(this->shape()) +
                                         " is not contiguous; call contiguous() first");
  if (num_elements(shape) != numel())
    throw Error(ErrorCode::Internal, "reshaped(): cannot reshape " + shape_to_string(this->shape()) + " to " +
                                         shape_to_string(shape) + ": element counts differ");
  Tensor result = *this;
  result.view_ = TensorView(dtype(), std::move(shape), view_.raw(), format());
  return result;
}

Tensor Tensor::with_format(Format format) const {
  Tensor result = *this;
  result.view_ = TensorView(dtype(), shape(), strides(), view_.raw(), format);
  return result;
}

}  // namespace asc
