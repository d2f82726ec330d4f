// Tensors: an owning, reference-counted Tensor and a non-owning TensorView.
//
// Both describe dtype, shape, element strides, a data-format tag and where the first element
// is. Kernels may assume contiguous row-major data only after checking is_contiguous() (or
// calling Tensor::contiguous()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asc/sdk/dtype.hpp"

namespace asc {

using Shape = std::vector<std::int64_t>;

// How the elements of a 4-D (or 5-D) tensor are laid out. The NPU formats are Ascend's:
// NC1HWC0 splits C into C1 blocks of C0 (16 for fp16); FRACTAL_Z and FRACTAL_NZ tile cube
// operands into 16x16 fractals.
enum class Format : std::uint8_t { ND, NCHW, NHWC, NC1HWC0, FRACTAL_Z, FRACTAL_NZ };

std::string_view format_name(Format format);
std::optional<Format> parse_format(std::string_view text);

std::int64_t num_elements(const Shape& shape);
Shape contiguous_strides(const Shape& shape);
// Since SDK 0.5: the strides of `shape` [N, C, spatial...] (rank >= 3) laid out channels-last,
// i.e. in the memory order N, spatial..., C (NHWC for a 4-D NCHW shape): the shape keeps its
// meaning, only the order of the elements in memory changes. Contiguous strides below rank 3.
Shape channels_last_strides(const Shape& shape);
// "[1,3,224,224]"
std::string shape_to_string(const Shape& shape);

// A block of memory: owned (64-byte aligned, zero-filled) or borrowed from an external owner
// that the Buffer keeps alive (e.g. a memory-mapped weights file).
//
// Owned blocks of 256 KiB and more (since SDK 0.7) come from a process-wide arena of memory
// advised for transparent huge pages (2 MiB pages, Linux; 4 KiB-page aligned) and go back to it
// when freed, for the next run's buffers to reuse: kernels streaming several megabytes of
// activations and weights then miss the TLB far less (ResNet-50 b1 about 5 % faster; the arena's
// memory stays with the process, as glibc's heap does).
class Buffer {
 public:
  static std::shared_ptr<Buffer> allocate(std::size_t bytes);
  // Since SDK 0.7: as allocate(), without zero-filling, for a buffer the caller overwrites whole
  // (a kernel's output, packed weights). Throws EE3001 when the memory cannot be allocated.
  static std::shared_ptr<Buffer> allocate_uninitialized(std::size_t bytes);
  // Borrows `data`; `owner` is kept alive as long as the buffer is.
  static std::shared_ptr<Buffer> wrap(std::shared_ptr<const void> owner, std::byte* data, std::size_t bytes);

  std::byte* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  // Since SDK 0.8: allocated here (allocate, allocate_uninitialized), not borrowed with wrap.
  bool owned() const noexcept { return owned_; }

 private:
  Buffer(std::shared_ptr<const void> owner, std::byte* data, std::size_t bytes);
  std::shared_ptr<const void> owner_;
  std::byte* data_;
  std::size_t size_;
  bool owned_ = false;
};

class TensorView {
 public:
  TensorView() = default;
  TensorView(DType dtype, Shape shape, std::byte* data, Format format = Format::ND);
  TensorView(DType dtype, Shape shape, Shape strides, std::byte* data, Format format = Format::ND);

  DType dtype() const noexcept { return dtype_; }
  const Shape& shape() const noexcept { return shape_; }
  const Shape& strides() const noexcept { return strides_; }
  Format format() const noexcept { return format_; }
  std::int64_t rank() const noexcept { return static_cast<std::int64_t>(shape_.size()); }
  std::int64_t numel() const { return num_elements(shape_); }
  std::size_t nbytes() const { return static_cast<std::size_t>(numel()) * dtype_size(dtype_); }
  bool is_contiguous() const;
  // Since SDK 0.5: laid out as channels_last_strides(shape()) (dimensions of size 1 aside).
  bool is_channels_last() const;
  std::byte* raw() const noexcept { return data_; }

  // Typed pointer to the first element; throws EE8003 when T does not match dtype().
  template <class T> T* data() const {
    check_type(dtype_of<T>());
    return reinterpret_cast<T*>(data_);
  }
  // Elements as a span; requires a contiguous view.
  template <class T> std::span<T> span() const {
    check_contiguous();
    return {data<T>(), static_cast<std::size_t>(numel())};
  }

 private:
  void check_type(DType requested) const;
  void check_contiguous() const;
  DType dtype_ = DType::Undefined;
  Shape shape_;
  Shape strides_;
  std::byte* data_ = nullptr;
  Format format_ = Format::ND;
};

// A handle to a buffer plus a view into it. Copying a Tensor shares the buffer (like
// std::shared_ptr); clone() makes a deep copy.
class Tensor {
 public:
  Tensor() = default;
  // A new zero-filled contiguous tensor.
  Tensor(DType dtype, Shape shape, Format format = Format::ND);
  // A view into `buffer` starting `byte_offset` bytes in; checks that it fits.
  Tensor(std::shared_ptr<Buffer> buffer, std::size_t byte_offset, DType dtype, Shape shape, Shape strides,
         Format format = Format::ND);

  template <class T> static Tensor from_vector(Shape shape, const std::vector<T>& values);
  template <class T> static Tensor scalar(T value) { return from_vector<T>({}, {value}); }

  bool defined() const noexcept { return buffer_ != nullptr; }
  DType dtype() const noexcept { return view_.dtype(); }
  const Shape& shape() const noexcept { return view_.shape(); }
  const Shape& strides() const noexcept { return view_.strides(); }
  Format format() const noexcept { return view_.format(); }
  std::int64_t rank() const noexcept { return view_.rank(); }
  std::int64_t numel() const { return view_.numel(); }
  std::size_t nbytes() const { return view_.nbytes(); }
  bool is_contiguous() const { return view_.is_contiguous(); }
  const TensorView& view() const noexcept { return view_; }
  const std::shared_ptr<Buffer>& buffer() const noexcept { return buffer_; }

  template <class T> T* data() const { return view_.data<T>(); }
  template <class T> std::span<T> span() const { return view_.span<T>(); }

  // Element values converted to double / int64 (any dtype, any strides), in row-major order.
  std::vector<double> to_doubles() const;
  std::vector<std::int64_t> to_int64s() const;

  Tensor clone() const;
  // This tensor if already contiguous, else a contiguous copy.
  Tensor contiguous() const;
  // Since SDK 0.5: this tensor if already channels-last (is_channels_last()), else a copy laid
  // out so (same shape and values). Rank 3 and above.
  Tensor channels_last() const;
  bool is_channels_last() const { return view_.is_channels_last(); }
  // Same buffer, new shape (requires contiguity and equal element count).
  Tensor reshaped(Shape shape) const;
  // Converted copy (float->int truncates toward zero, like numpy astype; to bool is != 0).
  Tensor cast(DType dtype) const;
  Tensor with_format(Format format) const;

 private:
  std::shared_ptr<Buffer> buffer_;
  TensorView view_;
};

template <class T> Tensor Tensor::from_vector(Shape shape, const std::vector<T>& values) {
  if (num_elements(shape) != static_cast<std::int64_t>(values.size()))
    throw std::invalid_argument("Tensor::from_vector: element count does not match shape " + shape_to_string(shape));
  Tensor t(dtype_of<T>(), std::move(shape));
  std::copy(values.begin(), values.end(), t.data<T>());
  return t;
}

}  // namespace asc
