// Resize (opsets 11 and 13): output size from the scales input (floor(input * scale)) or the sizes
// input; modes nearest (a pure gather, any dtype), linear and cubic (separable passes in double
// precision over N dimensions). Upsample from older models arrives here through the version
// converter.
#include <algorithm>
#include <cmath>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "resize/resize_taps.hpp"
#include "tensor/axis_gather.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

constexpr std::size_t kRoi = 1, kScales = 2, kSizes = 3;

// Output lengths and the per-axis scale ONNX's reference uses with them.
struct ResizeTarget {
  Shape output;
  std::vector<double> scales;
};

// Scales win when present and non-empty (opset 11 passes an empty scales tensor with sizes).
ResizeTarget resize_target(const Shape& input, const Tensor* scales, const Tensor* sizes, const Node& node) {
  const std::size_t rank = input.size();
  ResizeTarget target;
  if (scales != nullptr && scales->numel() > 0) {
    target.scales = scales->to_doubles();
    if (target.scales.size() != rank)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": scales has " + std::to_string(target.scales.size()) +
                                                  " values for rank " + std::to_string(rank));
    for (std::size_t d = 0; d < rank; ++d) {
      if (!(target.scales[d] > 0))
        throw Error(ErrorCode::InvalidOperator, node.describe() + ": scales must be positive");
      target.output.push_back(static_cast<std::int64_t>(std::floor(target.scales[d] * static_cast<double>(input[d]))));
    }
    return target;
  }
  if (sizes == nullptr || sizes->numel() == 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": needs either scales or sizes");
  target.output = sizes->to_int64s();
  if (target.output.size() != rank)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": sizes has " + std::to_string(target.output.size()) +
                                                " values for rank " + std::to_string(rank));
  for (std::size_t d = 0; d < rank; ++d) {
    if (target.output[d] < 0 || (input[d] == 0 && target.output[d] != 0))
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": cannot resize " + shape_to_string(input) + " to " +
                                                  shape_to_string(target.output));
    target.scales.push_back(input[d] == 0 ? 1.0 : static_cast<double>(target.output[d]) / static_cast<double>(input[d]));
  }
  return target;
}

void infer_resize(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto dims = input_dims(context, 0);
  if (!dims) {
    set_output(context, 0, dtype, std::nullopt);
    return;
  }
  Dims out = unknown_dims(dims->size());
  const Tensor* scales = context.input_value(kScales);
  const Tensor* sizes = context.input_value(kSizes);
  if (scales != nullptr && scales->numel() > 0) {
    const auto values = scales->to_doubles();
    if (values.size() != dims->size())
      throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": scales has " + std::to_string(values.size()) +
                                                  " values for rank " + std::to_string(dims->size()));
    for (std::size_t d = 0; d < dims->size(); ++d) {
      const Dim& dim = (*dims)[d];
      if (dim.is_static()) out[d] = static_cast<std::int64_t>(std::floor(values[d] * static_cast<double>(dim.value)));
      else if (values[d] == 1.0) out[d] = dim;
    }
  } else if (sizes != nullptr && (scales != nullptr || !context.has_input(kScales))) {
    const auto values = sizes->to_int64s();
    if (values.size() != dims->size())
      throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": sizes has " + std::to_string(values.size()) +
                                                  " values for rank " + std::to_string(dims->size()));
    out = to_dims(values);
  }
  set_output(context, 0, dtype, std::move(out));
}

std::vector<AxisPlan> plan_axes(const KernelContext& context, const ResizeAttributes& attributes, const Shape& input,
                                const ResizeTarget& target) {
  const std::size_t rank = input.size();
  std::vector<double> roi;
  if (attributes.coordinates == CoordinateMode::TfCropAndResize) {
    if (context.has_input(kRoi)) roi = context.input(kRoi).to_doubles();
    if (roi.size() != 2 * rank)
      throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": tf_crop_and_resize needs a roi of " +
                                                  std::to_string(2 * rank) + " values");
  }
  std::vector<AxisPlan> plans;
  for (std::size_t d = 0; d < rank; ++d) {
    const double start = roi.empty() ? 0.0 : roi[d];
    const double end = roi.empty() ? 1.0 : roi[d + rank];
    plans.push_back(plan_axis(input[d], target.output[d], target.scales[d], start, end, attributes));
  }
  return plans;
}

// Nearest: every output coordinate reads one input coordinate per axis.
Tensor resize_nearest(const Tensor& input, const std::vector<AxisPlan>& plans, const Shape& output,
                      double extrapolation_value) {
  const Shape strides = contiguous_strides(input.shape());
  std::vector<std::vector<std::int64_t>> offsets(plans.size());
  for (std::size_t d = 0; d < plans.size(); ++d)
    for (std::size_t x = 0; x < plans[d].taps.size(); ++x) {
      const auto& taps = plans[d].taps[x];
      offsets[d].push_back(plans[d].outside[x] || taps.empty() ? -1 : taps.front().index * strides[d]);
    }
  Tensor out(input.dtype(), output);
  const Tensor fill = Tensor::scalar<double>(extrapolation_value).cast(input.dtype());
  gather_by_axis_offsets(input, offsets, fill, out);
  return out;
}

// Linear and cubic: one pass per resized axis, in double precision.
Tensor resize_interpolating(const Tensor& input, const std::vector<AxisPlan>& plans, double extrapolation_value) {
  std::vector<double> values = input.to_doubles();
  Shape shape = input.shape();
  for (std::size_t d = 0; d < plans.size(); ++d) {
    const AxisPlan& plan = plans[d];
    const auto out_length = static_cast<std::int64_t>(plan.taps.size());
    if (out_length == shape[d] && plan.is_identity()) continue;
    std::int64_t outer = 1;
    std::int64_t inner = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (k < d) outer *= shape[k];
      if (k > d) inner *= shape[k];
    }
    const std::int64_t in_length = shape[d];
    std::vector<double> next(static_cast<std::size_t>(outer * out_length * inner), 0.0);
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t x = 0; x < out_length; ++x) {
        double* dst = next.data() + (o * out_length + x) * inner;
        if (plan.outside[static_cast<std::size_t>(x)]) {
          std::fill(dst, dst + inner, extrapolation_value);
          continue;
        }
        for (const Tap& tap : plan.taps[static_cast<std::size_t>(x)]) {
          const double* src = values.data() + (o * in_length + tap.index) * inner;
          for (std::int64_t i = 0; i < inner; ++i) dst[i] += tap.weight * src[i];
        }
      }
    values = std::move(next);
    shape[d] = out_length;
  }
  return Tensor::from_vector<double>(shape, values).cast(input.dtype());
}

void compute_resize(KernelContext& context) {
  const Tensor& input = context.input(0);
  const ResizeAttributes attributes = resize_attributes(context.node, context.opset);
  const ResizeTarget target = resize_target(input.shape(), context.has_input(kScales) ? context.inputs[kScales] : nullptr,
                                            context.has_input(kSizes) ? context.inputs[kSizes] : nullptr, context.node);
  if (input.numel() == 0 && num_elements(target.output) != 0)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": cannot resize an empty tensor to " +
                                                shape_to_string(target.output));
  const std::vector<AxisPlan> plans = plan_axes(context, attributes, input.shape(), target);
  context.outputs[0] = attributes.mode == ResizeMode::Nearest
                           ? resize_nearest(input, plans, target.output, attributes.extrapolation_value)
                           : resize_interpolating(input, plans, attributes.extrapolation_value);
}

// Two flops (multiply, add) per tap: 2 taps per resized axis for linear, 4 for cubic.
CostFacts resize_cost(const CostContext& context) {
  CostFacts facts = data_movement_cost(context);
  const std::string mode = context.node.attributes.get_string("mode", "nearest");
  if (mode == "nearest" || context.inputs.empty() || context.outputs.empty() || context.inputs[0] == nullptr ||
      context.outputs[0] == nullptr)
    return facts;
  const auto input = known_shape(*context.inputs[0]);
  const auto output = known_shape(*context.outputs[0]);
  if (!input || !output || input->size() != output->size()) return facts;
  double taps = 1;
  for (std::size_t d = 0; d < input->size(); ++d)
    if ((*input)[d] != (*output)[d]) taps *= mode == "cubic" ? 4 : 2;
  facts.flops = 2 * taps * static_cast<double>(num_elements(*output));
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "Resize", 11, 17, infer_resize, compute_resize, resize_cost);

}  // namespace asc::ops
