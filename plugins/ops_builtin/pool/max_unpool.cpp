// MaxUnpool (opset 11-17): scatters X into a zero tensor at MaxPool's Indices.
//
// Indices are offsets into the flattened output, as MaxPool produced them for its input, also when
// output_shape is given (ONNX Runtime's and PyTorch's reading; the ONNX node test
// test_maxunpool_export_with_output_shape expects otherwise and is listed as invalid in
// onnx/onnx#2398).
#include <cstring>
#include <string>

#include <asc/sdk/error.hpp>

#include "common/conv_pool_window.hpp"
#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void max_unpool_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

WindowAttributes unpool_attributes(const Node& node, std::size_t spatial) {
  WindowAttributes attributes = read_window_attributes(node, spatial, false);
  if (attributes.kernel.empty()) max_unpool_fail(node, "attribute 'kernel_shape' is required");
  return attributes;
}

// (in - 1) * stride + kernel - pads: the size of the MaxPool input that produced X.
std::int64_t unpooled_size(const WindowAttributes& attributes, std::size_t axis, std::int64_t input) {
  const std::size_t rank = attributes.strides.size();
  return (input - 1) * attributes.strides[axis] + attributes.kernel[axis] - attributes.pads[axis] -
         attributes.pads[axis + rank];
}

void max_unpool_infer(InferenceContext& context) {
  const Node& node = context.node;
  const ValueInfo& x = context.input(0);
  ValueInfo& y = context.outputs[0];
  y.dtype = x.dtype;
  y.shape = std::nullopt;
  if (context.has_input(2)) {
    if (const Tensor* shape = context.input_value(2))
      y.shape = to_dims(shape->to_int64s());
    else if (x.shape)
      y.shape = std::vector<Dim>(x.shape->size());
    return;
  }
  if (!x.shape) return;
  const std::vector<Dim>& dims = *x.shape;
  if (dims.size() < 3)
    max_unpool_fail(node, "X has rank " + std::to_string(dims.size()) + ", expected N, C and spatial axes");
  const WindowAttributes attributes = unpool_attributes(node, dims.size() - 2);
  std::vector<Dim> out{dims[0], dims[1]};
  for (std::size_t axis = 0; axis + 2 < dims.size(); ++axis)
    out.push_back(dims[axis + 2].is_static() ? Dim(unpooled_size(attributes, axis, dims[axis + 2].value))
                                             : Dim());
  y.shape = std::move(out);
}

void max_unpool_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x = context.input(0);
  const Tensor& indices = context.input(1);
  if (x.rank() < 3)
    max_unpool_fail(node, "X has rank " + std::to_string(x.rank()) + ", expected N, C and spatial axes");
  if (indices.shape() != x.shape())
    max_unpool_fail(
        node, "I has shape " + shape_to_string(indices.shape()) + " but X has " + shape_to_string(x.shape()));
  const WindowAttributes attributes = unpool_attributes(node, x.shape().size() - 2);
  Shape y_shape;
  if (context.has_input(2)) {
    y_shape = context.input(2).to_int64s();
    if (y_shape.size() != x.shape().size())
      max_unpool_fail(node, "output_shape " + shape_to_string(y_shape) + " must have X's rank " +
                                std::to_string(x.rank()));
  } else {
    y_shape = {x.shape()[0], x.shape()[1]};
    for (std::size_t axis = 0; axis + 2 < x.shape().size(); ++axis)
      y_shape.push_back(unpooled_size(attributes, axis, x.shape()[axis + 2]));
  }
  for (std::int64_t size : y_shape)
    if (size < 0) max_unpool_fail(node, "output shape " + shape_to_string(y_shape) + " has a negative size");
  Tensor y(x.dtype(), y_shape);
  const std::int64_t limit = y.numel();
  const std::size_t element = dtype_size(x.dtype());
  const std::vector<std::int64_t> positions = indices.to_int64s();
  const std::byte* in = x.view().raw();
  std::byte* out = y.view().raw();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (positions[i] < 0 || positions[i] >= limit)
      max_unpool_fail(node, "index " + std::to_string(positions[i]) + " is outside the output of " +
                                std::to_string(limit) + " elements");
    std::memcpy(out + static_cast<std::size_t>(positions[i]) * element, in + i * element, element);
  }
  context.outputs[0] = y;
}

}  // namespace

ASC_REGISTER_OP("", "MaxUnpool", 11, 17, max_unpool_infer, max_unpool_compute, data_movement_cost);

}  // namespace asc::ops
