// The seed's TBE kernel, written once in the DSL (asc/sdk/tbe/):
//
//   def fused_conv_bn_relu(x, weight, bias, scale, offset):
//       y = conv(x, weight, strides=[1,1], pads=[1,1,1,1])   # Cube
//       y = emit_insn(y, vector_muls, scale)                 # Vector
//       y = emit_insn(y, vector_adds, offset)
//       y = emit_insn(y, vector_relu, None)
//
// as com.example::FusedConvBnRelu(x, weight, bias?, scale, offset) with ONNX Conv's attributes
// (strides, pads, dilations, group). scale and offset are per output channel ([M]): BatchNorm
// folded, scale = gamma / sqrt(var + eps), offset = beta - mean * scale. Everything else (shape
// inference, the golden and NPU kernels, auto_schedule's tiling and the cost) follows from the
// expression; docs/custom_ops.md walks through it.
//
// The plugin also brings its fusion rule: Conv -> BatchNormalization -> Relu in an ONNX model
// becomes this operator when atc compiles it with --op_lib_path (switch it off by its name,
// ConvBnReluToFusedConvBnRelu, or with the seed's "CustomFusion": false).
#include <cmath>

#include <asc/sdk/fusion_rule.hpp>
#include <asc/sdk/plugin.hpp>
#include <asc/sdk/tbe/op.hpp>

namespace {

using namespace asc::tbe;

std::array<std::int64_t, 2> pair_of(const asc::Attributes& attrs, const std::string& name) {
  const std::vector<std::int64_t> values = attrs.get_ints(name, {1, 1});
  return {values.at(0), values.at(1)};
}

TensorExpr fused_conv_bn_relu(const OpInputs& in) {
  const std::vector<std::int64_t> pads = in.attrs().get_ints("pads", {0, 0, 0, 0});
  const Conv2dParams params{pair_of(in.attrs(), "strides"),
                            {pads.at(0), pads.at(1), pads.at(2), pads.at(3)},
                            pair_of(in.attrs(), "dilations"),
                            in.attrs().get_int("group", 1)};
  TensorExpr y = conv2d(in[0], in[1], params);  // Cube, fp32 accumulation in L0C
  const asc::Shape& shape = y.shape();
  if (in[2].defined()) y = vadd(y, broadcast(in[2], shape, 1));  // the convolution's bias, per channel
  y = vmul(y, broadcast(in[3], shape, 1));                       // BatchNorm: * scale
  y = vadd(y, broadcast(in[4], shape, 1));                       //            + offset
  return vrelu(y);
}

// BatchNormalization(Conv(x, W, b)) = Conv(x, W) * scale + offset with scale = gamma / sqrt(var +
// eps) and offset = beta + (b - mean) * scale, computed in double. Only 2-D convolutions with
// constant weights and statistics match.
std::optional<asc::ChainReplacement> fold_batch_norm(const asc::ChainMatch& match) {
  const asc::Node& conv = *match.nodes[0];
  const asc::Node& bn = *match.nodes[1];
  const asc::Tensor* weight = match.constant(conv.inputs.at(1));
  if (weight == nullptr || weight->rank() != 4 || bn.inputs.size() < 5) return std::nullopt;
  const std::int64_t channels = weight->shape()[0];
  std::vector<std::vector<double>> params;  // gamma, beta, mean, var
  for (std::size_t i = 1; i < 5; ++i) {
    const asc::Tensor* value = match.constant(bn.inputs[i]);
    if (value == nullptr || value->numel() != channels) return std::nullopt;
    params.push_back(value->to_doubles());
  }
  std::vector<double> bias(static_cast<std::size_t>(channels), 0.0);
  if (conv.inputs.size() > 2 && !conv.inputs[2].empty()) {
    const asc::Tensor* value = match.constant(conv.inputs[2]);
    if (value == nullptr || value->numel() != channels) return std::nullopt;
    bias = value->to_doubles();
  }
  const double epsilon = bn.attributes.get_float("epsilon", 1e-5f);
  std::vector<float> scale(static_cast<std::size_t>(channels)), offset(scale.size());
  for (std::size_t c = 0; c < scale.size(); ++c) {
    const double s = params[0][c] / std::sqrt(params[3][c] + epsilon);
    scale[c] = static_cast<float>(s);
    offset[c] = static_cast<float>(params[1][c] + (bias[c] - params[2][c]) * s);
  }
  asc::ChainReplacement replacement{.domain = "com.example", .op_type = "FusedConvBnRelu"};
  for (const char* name : {"strides", "pads", "dilations", "group"})
    if (conv.attributes.has(name)) replacement.attributes.set(name, conv.attributes.all().at(name));
  replacement.inputs = {conv.inputs[0], conv.inputs[1], "", "scale", "offset"};
  replacement.constants.emplace("scale", asc::Tensor::from_vector<float>({channels}, scale));
  replacement.constants.emplace("offset", asc::Tensor::from_vector<float>({channels}, offset));
  return replacement;
}

}  // namespace

ASC_TBE_OP({.domain = "com.example",
            .op_type = "FusedConvBnRelu",
            .inputs = {"x", "weight", "bias", "scale", "offset"},
            .compute = fused_conv_bn_relu});

ASC_PLUGIN("fused_conv_bn_relu", "1.0.0", asc::kOpLibraryKind | asc::kPassKind,
           "The seed's fused_conv_bn_relu, in the TBE DSL, and its Conv+BN+Relu fusion rule") {
  registrar.add_collected_ops();
  registrar.add_pass(asc::make_chain_fusion(
      {.name = "ConvBnReluToFusedConvBnRelu",
       .description = "Conv -> BatchNormalization -> Relu becomes com.example::FusedConvBnRelu (BN folded)",
       .pattern = {"Conv", "BatchNormalization", "Relu"},
       .rewrite = fold_batch_norm}));
}
