#include "strided_copy.hpp"

#include <cstring>
#include <vector>

namespace asc::detail {
namespace {

struct Dimension {
  std::int64_t size;
  std::int64_t stride;  // in elements
};

// The view's dimensions without those of size 1, each merged into the one before it when the
// outer one steps exactly over the inner one's extent.
std::vector<Dimension> merged_dimensions(const Shape& shape, const Shape& strides) {
  std::vector<Dimension> dims;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!dims.empty() && dims.back().stride == strides[d] * shape[d]) {
      dims.back() = {dims.back().size * shape[d], strides[d]};
    } else {
      dims.push_back({shape[d], strides[d]});
    }
  }
  if (dims.empty()) dims.push_back({1, 1});
  return dims;
}

// One plane of the view (its last two dimensions: `rows` of `row`), row after row. Copying a
// plane per step of the outer loop rather than a row keeps that loop's bookkeeping off short
// rows: an NCHW image read as NHWC has rows of C = 3 elements.
template <class Word>
void gather_plane(const std::byte* in, Dimension rows, Dimension row, std::byte* out) {
  const auto* from = reinterpret_cast<const Word*>(in);
  auto* to = reinterpret_cast<Word*>(out);
  for (std::int64_t r = 0; r < rows.size; ++r, from += rows.stride, to += row.size)
    for (std::int64_t i = 0; i < row.size; ++i) to[i] = from[i * row.stride];
}

void copy_plane(const std::byte* in, Dimension rows, Dimension row, std::int64_t element, std::byte* out) {
  const std::int64_t row_bytes = row.size * element;
  if (row.stride == 1) {
    for (std::int64_t r = 0; r < rows.size; ++r)
      std::memcpy(out + r * row_bytes, in + r * rows.stride * element, static_cast<std::size_t>(row_bytes));
    return;
  }
  switch (element) {
    case 1: return gather_plane<std::uint8_t>(in, rows, row, out);
    case 2: return gather_plane<std::uint16_t>(in, rows, row, out);
    case 4: return gather_plane<std::uint32_t>(in, rows, row, out);
    case 8: return gather_plane<std::uint64_t>(in, rows, row, out);
    default:
      for (std::int64_t r = 0; r < rows.size; ++r)
        for (std::int64_t i = 0; i < row.size; ++i)
          std::memcpy(out + (r * row.size + i) * element, in + (r * rows.stride + i * row.stride) * element,
                      static_cast<std::size_t>(element));
  }
}

}  // namespace

void copy_strided(const TensorView& view, std::byte* out) {
  if (view.numel() == 0) return;
  std::vector<Dimension> dims = merged_dimensions(view.shape(), view.strides());
  if (dims.size() == 1) dims.insert(dims.begin(), Dimension{1, 0});
  const auto element = static_cast<std::int64_t>(dtype_size(view.dtype()));
  const Dimension row = dims.back();
  const Dimension rows = dims[dims.size() - 2];
  const std::size_t outer_rank = dims.size() - 2;
  const std::int64_t plane_bytes = rows.size * row.size * element;
  std::vector<std::int64_t> index(outer_rank, 0);
  std::int64_t offset = 0;  // of the plane's first element, in elements
  for (std::int64_t planes = view.numel() / (rows.size * row.size); planes > 0; --planes) {
    copy_plane(view.raw() + offset * element, rows, row, element, out);
    out += plane_bytes;
    for (std::size_t d = outer_rank; d-- > 0;) {
      if (++index[d] < dims[d].size) {
        offset += dims[d].stride;
        break;
      }
      offset -= dims[d].stride * (dims[d].size - 1);
      index[d] = 0;
    }
  }
}

}  // namespace asc::detail
