// Pad (opset 11+: pads and constant_value are inputs): modes constant, reflect and edge.
// Negative pads crop. Each output coordinate maps to a source coordinate per dimension (or to
// "outside", the constant, in constant mode).
#include <algorithm>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/axis_gather.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

enum class PadMode { Constant, Reflect, Edge };

PadMode pad_mode(const Node& node) {
  const std::string mode = node.attributes.get_string("mode", "constant");
  if (mode == "constant") return PadMode::Constant;
  if (mode == "reflect") return PadMode::Reflect;
  if (mode == "edge") return PadMode::Edge;
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": unsupported mode '" + mode + "'");
}

void check_pads(const std::vector<std::int64_t>& pads, std::size_t rank, const Node& node) {
  if (pads.size() != 2 * rank)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": pads " + shape_to_string(pads) + " need " +
                                                std::to_string(2 * rank) + " values for rank " + std::to_string(rank));
}

Dim padded_dim(const Dim& dim, std::int64_t before, std::int64_t after, const Node& node) {
  if (!dim.is_static()) return before == 0 && after == 0 ? dim : Dim();
  const std::int64_t size = dim.value + before + after;
  if (size < 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": pads crop a dimension of " +
                                                std::to_string(dim.value) + " below zero");
  return size;
}

void infer_pad(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto dims = input_dims(context, 0);
  if (!dims) {
    set_output(context, 0, dtype, std::nullopt);
    return;
  }
  const Tensor* pads_value = context.input_value(1);
  if (pads_value == nullptr) {
    set_output(context, 0, dtype, unknown_dims(dims->size()));
    return;
  }
  const auto pads = pads_value->to_int64s();
  check_pads(pads, dims->size(), context.node);
  Dims out;
  for (std::size_t d = 0; d < dims->size(); ++d)
    out.push_back(padded_dim((*dims)[d], pads[d], pads[d + dims->size()], context.node));
  set_output(context, 0, dtype, std::move(out));
}

// Source coordinate of output coordinate `o` along a dimension of size `dim` padded by
// `before`; -1 means "the constant".
std::int64_t pad_source_coordinate(std::int64_t o, std::int64_t before, std::int64_t dim, PadMode mode) {
  const std::int64_t c = o - before;
  if (c >= 0 && c < dim) return c;
  switch (mode) {
    case PadMode::Constant: return -1;
    case PadMode::Edge: return std::clamp<std::int64_t>(c, 0, dim - 1);
    case PadMode::Reflect: {
      if (dim == 1) return 0;
      const std::int64_t period = 2 * (dim - 1);
      const std::int64_t m = ((c % period) + period) % period;
      return m < dim ? m : period - m;
    }
  }
  return -1;
}

// constant_value (default 0) as a scalar of the data's type.
Tensor constant_fill(const KernelContext& context, DType dtype) {
  if (!context.has_input(2)) return Tensor(dtype, {});
  const Tensor& value = context.input(2);
  if (value.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": constant_value must be a scalar");
  return value.cast(dtype).reshaped({});
}

void compute_pad(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& input = context.input(0);
  const Shape& shape = input.shape();
  const std::size_t rank = shape.size();
  const auto pads = context.input(1).to_int64s();
  check_pads(pads, rank, node);
  const PadMode mode = pad_mode(node);
  Shape out_shape;
  for (std::size_t d = 0; d < rank; ++d) out_shape.push_back(padded_dim(shape[d], pads[d], pads[d + rank], node).value);
  Tensor out(input.dtype(), out_shape);
  if (out.numel() == 0) {
    context.outputs[0] = std::move(out);
    return;
  }
  if (mode != PadMode::Constant && input.numel() == 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": edge and reflect padding need a non-empty input");
  // Per dimension: source element offset of each output coordinate, or -1.
  const Shape strides = contiguous_strides(shape);
  std::vector<std::vector<std::int64_t>> sources(rank);
  for (std::size_t d = 0; d < rank; ++d)
    for (std::int64_t o = 0; o < out_shape[d]; ++o) {
      const std::int64_t c = pad_source_coordinate(o, pads[d], shape[d], mode);
      sources[d].push_back(c < 0 ? -1 : c * strides[d]);
    }
  gather_by_axis_offsets(input, sources, constant_fill(context, input.dtype()), out);
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "Pad", 11, 17, infer_pad, compute_pad, data_movement_cost);

}  // namespace asc::ops
