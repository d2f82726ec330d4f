#include "tensor/axis_gather.hpp"

#include <cstring>

#include "tensor/element_words.hpp"

namespace asc::ops {

void gather_by_axis_offsets(const Tensor& input, const std::vector<std::vector<std::int64_t>>& offsets,
                            const Tensor& fill, Tensor& out) {
  const std::size_t rank = offsets.size();
  const std::int64_t total = out.numel();
  if (total == 0) return;
  if (rank == 0) {
    std::memcpy(out.view().raw(), input.view().raw(), dtype_size(input.dtype()));
    return;
  }
  visit_element_word(input.dtype(), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W* src = words_of<W>(input);
    const W constant = fill.defined() && fill.numel() > 0 ? words_of<W>(fill)[0] : W{};
    W* dst = mutable_words_of<W>(out);
    // The innermost axis varies fastest: hoist the outer axes' offset per row.
    const std::vector<std::int64_t>& last = offsets[rank - 1];
    const auto row = static_cast<std::int64_t>(last.size());
    std::vector<std::size_t> index(rank, 0);
    for (std::int64_t start = 0; start < total; start += row) {
      std::int64_t base = 0;
      bool inside = true;
      for (std::size_t d = 0; d + 1 < rank; ++d) {
        const std::int64_t offset = offsets[d][index[d]];
        inside = inside && offset >= 0;
        base += offset;
      }
      for (std::int64_t x = 0; x < row; ++x)
        dst[start + x] = inside && last[static_cast<std::size_t>(x)] >= 0 ? src[base + last[static_cast<std::size_t>(x)]] : constant;
      for (std::size_t d = rank - 1; d-- > 0;) {
        if (++index[d] < offsets[d].size()) break;
        index[d] = 0;
      }
    }
  });
}

}  // namespace asc::ops
