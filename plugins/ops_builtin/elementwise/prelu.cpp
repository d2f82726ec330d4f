// PRelu: y = x < 0 ? slope * x : x, with slope broadcast to x's shape (unidirectionally).
//
// Models from opset 6 (PyTorch's exports among them) give a per-channel slope as a 1-D [C] for
// X [N,C,D...]; ONNX's version converter passes the node on unchanged, though numpy broadcasting
// would align [C] with the last axis. Where that alignment is impossible and the slope has
// exactly C = X.shape[1] elements, the slope is read as [C,1,...,1] (what opset 6 meant).
#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

bool broadcasts_into(const std::vector<Dim>& x, const std::vector<Dim>& slope) {
  if (slope.size() > x.size()) return false;
  for (std::size_t i = 0; i < slope.size(); ++i) {
    const Dim& s = slope[slope.size() - 1 - i];
    const Dim& d = x[x.size() - 1 - i];
    if (s.is_static() && d.is_static() && s.value != 1 && s.value != d.value) return false;
  }
  return true;
}

bool is_legacy_channel_slope(const std::vector<Dim>& x, const std::vector<Dim>& slope) {
  return x.size() >= 3 && slope.size() == 1 && slope[0].is_static() && x[1].is_static() && slope[0].value == x[1].value;
}

// The slope's dims as they broadcast against X; throws EE2003 when they cannot.
std::vector<Dim> effective_slope_dims(const std::vector<Dim>& x, const std::vector<Dim>& slope, const Node& node) {
  if (broadcasts_into(x, slope)) return slope;
  if (is_legacy_channel_slope(x, slope)) {
    std::vector<Dim> channel(x.size() - 1, Dim(1));
    channel[0] = slope[0];
    return channel;
  }
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": slope cannot be broadcast to the shape of X");
}

void prelu_infer(InferenceContext& context) {
  require_same_input_dtypes(context);
  const ValueInfo& x = context.input(0);
  const ValueInfo& slope = context.input(1);
  if (x.shape && slope.shape) effective_slope_dims(*x.shape, *slope.shape, context.node);
  context.outputs[0].dtype = x.dtype;
  context.outputs[0].shape = x.shape;
}

void prelu_compute(KernelContext& context) {
  const Tensor& x = context.input(0);
  const Tensor& given_slope = context.input(1);
  if (x.dtype() != given_slope.dtype())
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": X and slope have different dtypes");
  Shape slope_shape;
  for (const Dim& d : effective_slope_dims(to_dims(x.shape()), to_dims(given_slope.shape()), context.node))
    slope_shape.push_back(d.value);
  const Tensor slope = given_slope.reshaped(slope_shape);
  dispatch<TypeSet::Numeric>(x.dtype(), context.node, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor output(x.dtype(), x.shape());
    broadcast_binary<T, T, T>(x, slope, output, [](auto v, auto s) { return v < decltype(v)(0) ? s * v : v; },
                              context.threads);
    context.outputs[0] = std::move(output);
  });
}

}  // namespace

ASC_REGISTER_OP("", "PRelu", 11, 17, prelu_infer, prelu_compute, per_element_cost(2 * element_flops::kSimple));

}  // namespace asc::ops
