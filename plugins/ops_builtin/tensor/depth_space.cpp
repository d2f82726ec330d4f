// DepthToSpace (modes DCR and CRD) and SpaceToDepth on NCHW tensors. Both are a reshape, a
// transpose and a reshape; the transpose is a strided view of the input, materialised.
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/inference_helpers.hpp"
#include "tensor/strided_view.hpp"

namespace asc::ops {
namespace {

std::int64_t block_size(const Node& node) {
  const std::int64_t block = node.attributes.require_int("blocksize");
  if (block <= 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": blocksize must be positive, not " + std::to_string(block));
  return block;
}

void require_rank4(std::size_t rank, const Node& node) {
  if (rank != 4)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": input must be 4-D (NCHW), not rank " + std::to_string(rank));
}

Dim scaled(const Dim& dim, std::int64_t multiply, std::int64_t divide, const Node& node) {
  if (!dim.is_static()) return {};
  if (dim.value % divide != 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": dimension " + std::to_string(dim.value) +
                                                " is not divisible by " + std::to_string(divide));
  return dim.value / divide * multiply;
}

void infer_depth_to_space(InferenceContext& context) {
  const auto dims = input_dims(context, 0);
  const DType dtype = context.input(0).dtype;
  if (!dims) {
    set_output(context, 0, dtype, unknown_dims(4));
    return;
  }
  require_rank4(dims->size(), context.node);
  const std::int64_t b = block_size(context.node);
  const Node& node = context.node;
  set_output(context, 0, dtype,
             Dims{(*dims)[0], scaled((*dims)[1], 1, b * b, node), scaled((*dims)[2], b, 1, node), scaled((*dims)[3], b, 1, node)});
}

void compute_depth_to_space(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& input = context.input(0);
  require_rank4(input.shape().size(), node);
  const std::int64_t b = block_size(node);
  const std::int64_t n = input.shape()[0], c = input.shape()[1], h = input.shape()[2], w = input.shape()[3];
  const std::int64_t c_out = scaled(c, 1, b * b, node).value;
  const std::int64_t hw = h * w;
  const bool crd = node.attributes.get_string("mode", "DCR") == "CRD";
  if (!crd && node.attributes.get_string("mode", "DCR") != "DCR")
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": mode must be DCR or CRD");
  // Output viewed as [N, C', H, b, W, b]; the channel read is (i, j, c') for DCR and (c', i, j)
  // for CRD, with i the row and j the column offset inside the block.
  const std::int64_t c_stride = crd ? b * b * hw : hw;
  const std::int64_t i_stride = crd ? b * hw : b * c_out * hw;
  const std::int64_t j_stride = crd ? hw : c_out * hw;
  const Tensor out = copy_strided(input, 0, {n, c_out, h, b, w, b}, {c * hw, c_stride, w, i_stride, 1, j_stride});
  context.outputs[0] = out.reshaped({n, c_out, h * b, w * b});
}

void infer_space_to_depth(InferenceContext& context) {
  const auto dims = input_dims(context, 0);
  const DType dtype = context.input(0).dtype;
  if (!dims) {
    set_output(context, 0, dtype, unknown_dims(4));
    return;
  }
  require_rank4(dims->size(), context.node);
  const std::int64_t b = block_size(context.node);
  const Node& node = context.node;
  set_output(context, 0, dtype,
             Dims{(*dims)[0], scaled((*dims)[1], b * b, 1, node), scaled((*dims)[2], 1, b, node), scaled((*dims)[3], 1, b, node)});
}

void compute_space_to_depth(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& input = context.input(0);
  require_rank4(input.shape().size(), node);
  const std::int64_t b = block_size(node);
  const std::int64_t n = input.shape()[0], c = input.shape()[1], h = input.shape()[2], w = input.shape()[3];
  const std::int64_t h_out = scaled(h, 1, b, node).value;
  const std::int64_t w_out = scaled(w, 1, b, node).value;
  // Output channel is (i, j, c): read the input as [N, b, b, C, H', W'].
  const Tensor out = copy_strided(input, 0, {n, b, b, c, h_out, w_out}, {c * h * w, w, 1, h * w, b * w, b});
  context.outputs[0] = out.reshaped({n, c * b * b, h_out, w_out});
}

}  // namespace

ASC_REGISTER_OP("", "DepthToSpace", 11, 17, infer_depth_to_space, compute_depth_to_space, data_movement_cost);
ASC_REGISTER_OP("", "SpaceToDepth", 11, 17, infer_space_to_depth, compute_space_to_depth, data_movement_cost);

}  // namespace asc::ops
