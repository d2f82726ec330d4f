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

template <class Word>
void gather_row(const std::byte* in, std::int64_t count, std::int64_t stride, std::byte* out) {
  const auto* from = reinterpret_cast<const Word*>(in);
  auto* to = reinterpret_cast<Word*>(out);
  for (std::int64_t i = 0; i < count; ++i) to[i] = from[i * stride];
}

}  // namespace

void copy_strided(const TensorView& view, std::byte* out) {
  if (view.numel() == 0) return;
  const std::vector<Dimension> dims = merged_dimensions(view.shape(), view.strides());
  const auto element = static_cast<std::int64_t>(dtype_size(view.dtype()));
  const Dimension row = dims.back();
  const std::size_t outer_rank = dims.size() - 1;
  const std::int64_t row_bytes = row.size * element;
  std::vector<std::int64_t> index(outer_rank, 0);
  std::int64_t offset = 0;  // of the row's first element, in elements
  for (std::int64_t rows = view.numel() / row.size; rows > 0; --rows) {
    const std::byte* in = view.raw() + offset * element;
    if (row.stride == 1) {
      std::memcpy(out, in, static_cast<std::size_t>(row_bytes));
    } else {
      switch (element) {
        case 1: gather_row<std::uint8_t>(in, row.size, row.stride, out); break;
        case 2: gather_row<std::uint16_t>(in, row.size, row.stride, out); break;
        case 4: gather_row<std::uint32_t>(in, row.size, row.stride, out); break;
        case 8: gather_row<std::uint64_t>(in, row.size, row.stride, out); break;
        default:
          for (std::int64_t i = 0; i < row.size; ++i)
            std::memcpy(out + i * element, in + i * row.stride * element, static_cast<std::size_t>(element));
      }
    }
    out += row_bytes;
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
