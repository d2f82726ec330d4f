// apply_epilogue_steps and OutputEpilogueSteps::foldable_into (op_registry.hpp, SDK 0.8), on
// hand-computed values: the Relu and Clip kernels' rules, under which NaN stays NaN, and the
// rounding to fp16.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc {
namespace {

using Activation = OutputEpilogueSteps::Activation;

// Runs the steps on y with the addend (empty: none); 19 elements, past any vector width's
// multiple, so the loops' tails run too.
std::vector<float> run(Activation activation, std::vector<float> y, const std::vector<float>& addend,
                       float low = 0, float high = 0) {
  OutputEpilogueSteps steps;
  steps.activation = activation;
  steps.low = low;
  steps.high = high;
  apply_epilogue_steps(steps, y.data(), addend.empty() ? nullptr : addend.data(), static_cast<std::int64_t>(y.size()));
  return y;
}

TEST_CASE("apply_epilogue_steps: addend, then ReLU or Clip, NaN kept") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> y(19, 1.0f), addend(19, 0.25f);
  y[0] = nan;
  y[1] = -3.0f;  // -3 + 0.25 = -2.75
  y[2] = 0.5f;   // 0.75
  y[18] = -0.25f;  // -0.25 + 0.25 = 0
  const std::vector<float> added = run(Activation::None, y, addend);
  CHECK(std::isnan(added[0]));
  CHECK(added[1] == -2.75f);
  CHECK(added[2] == 0.75f);
  CHECK(added[17] == 1.25f);
  CHECK(added[18] == 0.0f);

  const std::vector<float> relu = run(Activation::Relu, y, addend);
  CHECK(std::isnan(relu[0]));
  CHECK(relu[1] == 0.0f);
  CHECK(relu[2] == 0.75f);
  CHECK(relu[17] == 1.25f);

  const std::vector<float> relu_alone = run(Activation::Relu, y, {});
  CHECK(std::isnan(relu_alone[0]));
  CHECK(relu_alone[1] == 0.0f);
  CHECK(relu_alone[2] == 0.5f);
  CHECK(relu_alone[18] == 0.0f);

  // Clip to [-1, 1] as MobileNet's ReLU6 is to [0, 6].
  const std::vector<float> clip = run(Activation::Clip, y, addend, -1.0f, 1.0f);
  CHECK(std::isnan(clip[0]));
  CHECK(clip[1] == -1.0f);
  CHECK(clip[2] == 0.75f);
  CHECK(clip[17] == 1.0f);
  const std::vector<float> clip_alone = run(Activation::Clip, y, {}, -1.0f, 1.0f);
  CHECK(clip_alone[1] == -1.0f);
  CHECK(clip_alone[2] == 0.5f);
  CHECK(clip_alone[17] == 1.0f);

  // Rounded to fp16 after the activation: 1 + 2^-12 is below half an fp16 step above 1; 0.1 is
  // 0.0999755859375 in fp16; 70000 is past fp16's largest, 65504.
  std::vector<float> odd(19, 0.1f);
  odd[0] = nan;
  odd[1] = 1.0f + 1.0f / 4096;
  odd[2] = -3.0f;
  odd[3] = 70000.0f;
  OutputEpilogueSteps rounding;
  rounding.activation = Activation::Relu;
  rounding.round_to_f16 = true;
  apply_epilogue_steps(rounding, odd.data(), nullptr, static_cast<std::int64_t>(odd.size()));
  CHECK(std::isnan(odd[0]));
  CHECK(odd[1] == 1.0f);
  CHECK(odd[2] == 0.0f);
  CHECK(std::isinf(odd[3]));
  CHECK(odd[18] == 0.0999755859375f);

  // No addend and no activation: nothing changes.
  const std::vector<float> none = run(Activation::None, y, {});
  CHECK(none[1] == -3.0f);
  CHECK(none[18] == -0.25f);
}

TEST_CASE("OutputEpilogueSteps::foldable_into: no addend, or float32 laid out as the output") {
  const Shape shape{1, 3, 2, 2}, strides{12, 4, 2, 1}, last_strides{12, 1, 6, 3};
  OutputEpilogueSteps steps;
  CHECK(steps.foldable_into(shape, strides));
  const Tensor same(DType::Float32, shape);
  steps.addend = &same;
  CHECK(steps.foldable_into(shape, strides));
  CHECK_FALSE(steps.foldable_into(shape, last_strides));  // another layout
  const Tensor same_last = same.channels_last();
  steps.addend = &same_last;
  CHECK(steps.foldable_into(shape, last_strides));
  const Tensor other_shape(DType::Float32, {1, 3, 2, 1});
  steps.addend = &other_shape;
  CHECK_FALSE(steps.foldable_into(shape, strides));  // a broadcast
  const Tensor halves(DType::Float16, shape);
  steps.addend = &halves;
  CHECK_FALSE(steps.foldable_into(shape, strides));
}

}  // namespace
}  // namespace asc
