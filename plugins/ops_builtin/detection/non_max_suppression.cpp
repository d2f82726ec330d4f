// NonMaxSuppression: per batch and class, greedily keeps the highest-scoring boxes whose IoU with
// every kept box is at most iou_threshold. Output rows [batch, class, box] in batch, class,
// selection order.
#include <algorithm>
#include <numeric>
#include <string>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>

namespace asc::ops {
namespace {

struct Box {
  double y_min, x_min, y_max, x_max;
};

// center_point_box 0: [y1, x1, y2, x2] with any diagonal pair of corners; 1: [x_c, y_c, w, h].
Box box_at(const std::vector<double>& boxes, std::int64_t index, bool center_point) {
  const double* b = boxes.data() + index * 4;
  if (center_point)
    return {b[1] - b[3] / 2.0, b[0] - b[2] / 2.0, b[1] + b[3] / 2.0, b[0] + b[2] / 2.0};
  return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

bool overlaps_too_much(const Box& a, const Box& b, double iou_threshold) {
  const double height = std::min(a.y_max, b.y_max) - std::max(a.y_min, b.y_min);
  const double width = std::min(a.x_max, b.x_max) - std::max(a.x_min, b.x_min);
  if (height <= 0.0 || width <= 0.0) return false;
  const double intersection = height * width;
  const double area_a = (a.y_max - a.y_min) * (a.x_max - a.x_min);
  const double area_b = (b.y_max - b.y_min) * (b.x_max - b.x_min);
  const double union_area = area_a + area_b - intersection;
  if (area_a <= 0.0 || area_b <= 0.0 || union_area <= 0.0) return false;
  return intersection / union_area > iou_threshold;
}

double optional_scalar(const KernelContext& context, std::size_t input, double fallback) {
  if (!context.has_input(input)) return fallback;
  const Tensor& t = context.input(input);
  if (t.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": input " + std::to_string(input) +
                                                " must hold one value, got shape " + shape_to_string(t.shape()));
  return t.to_doubles()[0];
}

void non_max_suppression_infer(InferenceContext& context) {
  context.outputs[0].dtype = DType::Int64;
  context.outputs[0].shape = std::vector<Dim>{Dim(), Dim(3)};
}

void non_max_suppression_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& boxes_tensor = context.input(0);
  const Tensor& scores_tensor = context.input(1);
  const Shape& bs = boxes_tensor.shape();
  const Shape& ss = scores_tensor.shape();
  if (bs.size() != 3 || bs[2] != 4 || ss.size() != 3 || ss[0] != bs[0] || ss[2] != bs[1])
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": boxes " + shape_to_string(bs) + " and scores " +
                                                shape_to_string(ss) + " must be [B, N, 4] and [B, C, N]");
  const std::int64_t batches = bs[0], box_count = bs[1], classes = ss[1];
  const auto max_per_class = static_cast<std::int64_t>(optional_scalar(context, 2, 0.0));
  const double iou_threshold = optional_scalar(context, 3, 0.0);
  const bool has_score_threshold = context.has_input(4);
  const double score_threshold = optional_scalar(context, 4, 0.0);
  const bool center_point = context.attrs().get_int("center_point_box", 0) != 0;

  const std::vector<double> boxes = boxes_tensor.to_doubles();
  const std::vector<double> scores = scores_tensor.to_doubles();
  std::vector<std::int64_t> selected;
  std::vector<std::int64_t> candidates;
  std::vector<Box> kept;
  for (std::int64_t b = 0; b < batches && max_per_class > 0; ++b)
    for (std::int64_t c = 0; c < classes; ++c) {
      const double* class_scores = scores.data() + (b * classes + c) * box_count;
      candidates.clear();
      for (std::int64_t i = 0; i < box_count; ++i)
        if (!has_score_threshold || class_scores[i] > score_threshold) candidates.push_back(i);
      // Highest score first; equal scores keep the lower box index first.
      std::stable_sort(candidates.begin(), candidates.end(),
                       [&](std::int64_t x, std::int64_t y) { return class_scores[x] > class_scores[y]; });
      kept.clear();
      for (const std::int64_t i : candidates) {
        if (static_cast<std::int64_t>(kept.size()) >= max_per_class) break;
        const Box box = box_at(boxes, b * box_count + i, center_point);
        if (std::any_of(kept.begin(), kept.end(), [&](const Box& k) { return overlaps_too_much(k, box, iou_threshold); }))
          continue;
        kept.push_back(box);
        selected.insert(selected.end(), {b, c, i});
      }
    }
  context.outputs[0] = Tensor::from_vector(Shape{static_cast<std::int64_t>(selected.size() / 3), 3}, selected);
}

// About one IoU test (~20 flops) per pair of boxes per class; control-heavy.
CostFacts non_max_suppression_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Scalar};
  if (context.inputs.size() < 2 || context.inputs[1] == nullptr || !context.inputs[1]->has_static_shape()) return facts;
  const Shape scores = context.inputs[1]->static_shape();
  if (scores.size() == 3)
    facts.flops = 20.0 * static_cast<double>(scores[0]) * static_cast<double>(scores[1]) *
                  static_cast<double>(scores[2]) * static_cast<double>(scores[2]);
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "NonMaxSuppression", 11, 17, non_max_suppression_infer, non_max_suppression_compute,
                non_max_suppression_cost);

}  // namespace asc::ops
