// Unique (opset 11): the distinct elements of the flattened input, or the distinct slices along
// 'axis', sorted ascending (lexicographically for slices) or in order of first occurrence.
// Outputs Y, indices (first occurrence), inverse_indices and counts; the last three are int64.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "common/shape_utils.hpp"
#include "tensor/inference_helpers.hpp"
#include "tensor/scalar_cost.hpp"

namespace asc::ops {
namespace {

void infer_unique(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  std::optional<Dims> y_dims = unknown_dims(1);
  if (context.attrs().has("axis")) {
    y_dims = input_dims(context, 0);
    if (y_dims) {
      const auto axis = normalize_axis(context.attrs().require_int("axis"), static_cast<std::int64_t>(y_dims->size()), context.node);
      (*y_dims)[static_cast<std::size_t>(axis)] = Dim();
    }
  }
  set_output(context, 0, dtype, std::move(y_dims));
  for (std::size_t i = 1; i < context.outputs.size(); ++i) set_output(context, i, DType::Int64, unknown_dims(1));
}

// The input as `outer` blocks of `items` runs of `inner` elements: element e of item k in
// block o sits at (o * items + k) * inner + e. An item is one element (no axis) or one slice.
struct ItemLayout {
  std::int64_t outer = 1;
  std::int64_t items = 0;
  std::int64_t inner = 1;
};

template <class T> bool item_less(const T* data, const ItemLayout& layout, std::int64_t a, std::int64_t b) {
  for (std::int64_t o = 0; o < layout.outer; ++o)
    for (std::int64_t e = 0; e < layout.inner; ++e) {
      const T x = data[(o * layout.items + a) * layout.inner + e];
      const T y = data[(o * layout.items + b) * layout.inner + e];
      if (x < y) return true;
      if (y < x) return false;
    }
  return false;
}

void compute_unique(KernelContext& context) {
  const Tensor& full = context.input(0);
  const bool has_axis = context.attrs().has("axis");
  const Tensor input = has_axis ? full : full.reshaped({full.numel()});
  const auto axis = static_cast<std::size_t>(has_axis ? normalize_axis(context.attrs().require_int("axis"), input.rank(), context.node) : 0);
  ItemLayout layout;
  for (std::size_t d = 0; d < input.shape().size(); ++d) {
    if (d < axis) layout.outer *= input.shape()[d];
    else if (d == axis) layout.items = input.shape()[d];
    else layout.inner *= input.shape()[d];
  }
  // Stable sort by value: each run of equal items starts with its first occurrence.
  std::vector<std::int64_t> order(static_cast<std::size_t>(layout.items));
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::int64_t> group_of(order.size());  // item -> group (in sorted order)
  std::vector<std::int64_t> firsts;                   // group -> first occurrence
  std::vector<std::int64_t> counts;
  visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* data = input.data<T>();
    auto less = [&](std::int64_t a, std::int64_t b) { return item_less(data, layout, a, b); };
    std::stable_sort(order.begin(), order.end(), less);
    for (std::size_t n = 0; n < order.size(); ++n) {
      if (n == 0 || less(order[n - 1], order[n])) {
        firsts.push_back(order[n]);
        counts.push_back(0);
      }
      group_of[static_cast<std::size_t>(order[n])] = static_cast<std::int64_t>(firsts.size()) - 1;
      ++counts.back();
    }
  });
  // Output position of each group: sorted order, or order of first occurrence.
  const auto groups = firsts.size();
  std::vector<std::int64_t> by_position(groups);
  std::iota(by_position.begin(), by_position.end(), 0);
  if (context.attrs().get_int("sorted", 1) == 0)
    std::sort(by_position.begin(), by_position.end(), [&](std::int64_t a, std::int64_t b) {
      return firsts[static_cast<std::size_t>(a)] < firsts[static_cast<std::size_t>(b)];
    });
  std::vector<std::int64_t> position_of(groups);
  for (std::size_t p = 0; p < groups; ++p) position_of[static_cast<std::size_t>(by_position[p])] = static_cast<std::int64_t>(p);

  Shape y_shape = input.shape();
  y_shape[axis] = static_cast<std::int64_t>(groups);
  Tensor y(input.dtype(), y_shape);
  const std::size_t slice_bytes = static_cast<std::size_t>(layout.inner) * dtype_size(input.dtype());
  for (std::int64_t o = 0; o < layout.outer; ++o)
    for (std::size_t p = 0; p < groups; ++p) {
      const std::int64_t item = firsts[static_cast<std::size_t>(by_position[p])];
      std::memcpy(y.view().raw() + (static_cast<std::size_t>(o) * groups + p) * slice_bytes,
                  input.view().raw() + static_cast<std::size_t>(o * layout.items + item) * slice_bytes, slice_bytes);
    }
  std::vector<std::int64_t> indices, inverse, sorted_counts;
  for (const std::int64_t group : by_position) {
    indices.push_back(firsts[static_cast<std::size_t>(group)]);
    sorted_counts.push_back(counts[static_cast<std::size_t>(group)]);
  }
  for (const std::int64_t group : group_of) inverse.push_back(position_of[static_cast<std::size_t>(group)]);
  auto vector_output = [](const std::vector<std::int64_t>& values) {
    return Tensor::from_vector<std::int64_t>({static_cast<std::int64_t>(values.size())}, values);
  };
  context.outputs[0] = std::move(y);
  const std::vector<std::int64_t>* extras[] = {&indices, &inverse, &sorted_counts};
  for (std::size_t i = 1; i < context.outputs.size() && i <= 3; ++i)
    if (!context.node.outputs[i].empty()) context.outputs[i] = vector_output(*extras[i - 1]);
}

}  // namespace

ASC_REGISTER_OP("", "Unique", 11, 17, infer_unique, compute_unique, scalar_data_movement_cost);

}  // namespace asc::ops
