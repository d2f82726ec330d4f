// The fused operators as registered definitions: kernels against hand-computed values, shape
// inference, cost facts, and errors for bad attributes.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <vector>
#include <cmath>
#include <limits>

#include <asc/sdk/error.hpp>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

const OpDefinition& fused(const std::string& op_type) {
  const OpDefinition* definition = registry().ops().find("asc", op_type, 1);
  REQUIRE_MESSAGE(definition != nullptr, "asc." << op_type << " is not registered");
  CHECK(definition->plugin == "fusion");
  return *definition;
}

Tensor run_kernel(const OpDefinition& definition, const Node& node, std::vector<const Tensor*> inputs,
                  int threads = 1) {
  KernelContext context{node, 1, std::move(inputs), std::vector<Tensor>(1), threads};
  definition.compute(context);
  return context.outputs[0];
}

ValueInfo infer(const OpDefinition& definition, const Node& node, const std::vector<const ValueInfo*>& inputs) {
  InferenceContext context{node, 1, inputs, std::vector<const Tensor*>(inputs.size(), nullptr),
                           {ValueInfo{"y", DType::Undefined, std::nullopt}}};
  definition.infer(context);
  return context.outputs[0];
}

TEST_CASE("asc.Gelu computes the erf and tanh forms") {
  const Tensor x = Tensor::from_vector<float>({3}, {-0.5f, 0.0f, 1.0f});
  // Hand-evaluated: 0.5·x·(1+erf(x/√2)) and 0.5·x·(1+tanh(√(2/π)(x+0.044715x³))).
  const std::vector<double> exact{-0.15426876936299344, 0.0, 0.8413447460685429};
  const std::vector<double> approximate{-0.15428599017485606, 0.0, 0.8411919906082768};
  for (const bool tanh_form : {false, true}) {
    Node node{"gelu", "Gelu", "asc", attrs({{"approximate", std::string(tanh_form ? "tanh" : "none")}}), {"x"}, {"y"}, {}};
    const auto y = run_kernel(fused("Gelu"), node, {&x}).to_doubles();
    for (std::size_t i = 0; i < y.size(); ++i) CHECK(y[i] == doctest::Approx((tanh_form ? approximate : exact)[i]).epsilon(1e-6));
  }
  Node bad{"gelu", "Gelu", "asc", attrs({{"approximate", std::string("fast")}}), {"x"}, {"y"}, {}};
  CHECK_THROWS_AS(run_kernel(fused("Gelu"), bad, {&x}), Error);
}

TEST_CASE("asc.LayerNorm's cost sees the device target, as LayerNormalization's does") {
  // LayerNormalization counts about 6 operations per element, 32 fp16 instructions on an fp16
  // device (TBE's fp32 steps, tests/ops_nn/test_normalization.cpp); the fused operator costs its
  // inner LayerNormalization with the same target.
  const ValueInfo x = ValueInfo::from_shape("x", DType::Float32, {4, 8});
  const ValueInfo scale = ValueInfo::from_shape("scale", DType::Float32, {8});
  const ValueInfo y = ValueInfo::from_shape("y", DType::Float32, {4, 8});
  Node node{"norm", "LayerNorm", "asc", attrs({{"axis", std::int64_t{-1}}}), {"x", "scale"}, {"y"}, {}};
  CHECK(fused("LayerNorm").cost(CostContext{node, {&x, &scale}, {&y}}).flops == 6.0 * 32);
  KernelTarget fp16;
  fp16.element_bytes = 2;
  CHECK(fused("LayerNorm").cost(CostContext{node, {&x, &scale}, {&y}, &fp16}).flops == 32.0 * 32);
}

TEST_CASE("asc.FusedConv infers Conv's shape, charges the Cube unit and rejects bad activations") {
  const ValueInfo x = ValueInfo::from_shape("x", DType::Float32, {1, 3, 8, 8});
  const ValueInfo w = ValueInfo::from_shape("W", DType::Float32, {4, 3, 3, 3});
  Node node{"conv", "FusedConv", "asc", attrs({{"activation", std::string("Relu")}}), {"x", "W"}, {"y"}, {}};
  const ValueInfo y = infer(fused("FusedConv"), node, {&x, &w});
  CHECK(y.static_shape() == Shape{1, 4, 6, 6});
  const CostFacts cost = fused("FusedConv").cost(CostContext{node, {&x, &w}, {&y}});
  CHECK(cost.unit == ComputeUnit::Cube);
  // The convolution's own cost (2·144 outputs·27 MACs at least) plus one flop per output for Relu.
  const Node conv{"conv", "Conv", "", {}, {"x", "W"}, {"y"}, {}};
  const CostFacts plain = registry().ops().find("", "Conv", 13)->cost(CostContext{conv, {&x, &w}, {&y}});
  CHECK(plain.flops >= 2.0 * 144 * 27);
  CHECK(cost.flops == doctest::Approx(plain.flops + 144));

  Node unknown{"conv", "FusedConv", "asc", attrs({{"activation", std::string("Swish7")}}), {"x", "W"}, {"y"}, {}};
  CHECK(error_code_of([&] { infer(fused("FusedConv"), unknown, {&x, &w}); }) == ErrorCode::InvalidOperator);
  Node missing{"conv", "FusedConv", "asc", attrs({{"activation", std::string("Clip")}}), {"x", "W"}, {"y"}, {}};
  CHECK(error_code_of([&] { infer(fused("FusedConv"), missing, {&x, &w}); }) == ErrorCode::InvalidOperator);
}

TEST_CASE("asc.FusedConv: residual and ReLU on the Conv's pieces, then the caller's epilogue") {
  // 1x1 Conv on a channels-last [1, 2, 1, 2] input, hand-computed: W = [[1, -1], [2, 0]] gives
  // channel 0 = x0 - x1 = [NaN, -3.5] and channel 1 = 2 x0 = [NaN, -6] (x0 = [NaN, -3]); + Z
  // ([0.5, 4], [1, 1]) = [NaN, 0.5], [NaN, -5]; ReLU keeps NaN: [NaN, 0.5], [NaN, 0]. The
  // caller's epilogue (KernelContext::output_epilogue, SDK 0.6) adds 10 to every element once.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = Tensor::from_vector<float>({1, 2, 1, 2}, {nan, -3.0f, 2.0f, 0.5f}).channels_last();
  const Tensor w = Tensor::from_vector<float>({2, 2, 1, 1}, {1.0f, -1.0f, 2.0f, 0.0f});
  const Tensor z_plain = Tensor::from_vector<float>({1, 2, 1, 2}, {0.5f, 4.0f, 1.0f, 1.0f});
  const Node node{"conv", "FusedConv", "asc", attrs({{"activation", std::string("Relu")}}), {"x", "W", "", "z"}, {"y"}, {}};
  for (const bool residual_channels_last : {true, false}) {
    CAPTURE(residual_channels_last);
    const Tensor z = residual_channels_last ? z_plain.channels_last() : z_plain;
    int visits = 0;
    KernelContext context{node, 1, {&x, &w, nullptr, &z}, std::vector<Tensor>(1), 2};
    context.channels_last_outputs = {true};
    context.output_epilogue = [&visits](Tensor& y, std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i, ++visits) y.data<float>()[i] += 10.0f;
    };
    fused("FusedConv").compute(context);
    std::vector<double> y = context.outputs[0].to_doubles();
    // A residual in another layout than the output takes the whole-tensor path, which leaves the
    // caller's epilogue to the caller.
#if defined(ASC_TEST_HAVE_ONEDNN)
    const bool in_pieces = residual_channels_last;
#else
    const bool in_pieces = false;  // no channels-last Conv: no pieces
#endif
    CHECK(context.output_epilogue_done == in_pieces);
    CHECK(visits == (in_pieces ? 4 : 0));
    if (!context.output_epilogue_done)
      for (double& value : y) value += 10;
    CHECK(std::isnan(y[0]));
    CHECK(y[1] == 10.5);
    CHECK(std::isnan(y[2]));
    CHECK(y[3] == 10.0);
  }
}

#if defined(ASC_TEST_HAVE_ONEDNN)
TEST_CASE("asc.FusedConv: the caller's epilogue sees each element once, after the residual and ReLU") {
  // An identity 1x1 Conv over 16 channels of 32x32 (y = x exactly: one product by 1, the others
  // by 0), so each of two threads' bands of rows holds 8192 elements, more than one run of the
  // in-place epilogue. Whenever the caller's epilogue reaches an element, it must already be
  // relu(x + z), and every element must be reached exactly once.
  constexpr std::int64_t kChannels = 16, kSide = 32, kCount = kChannels * kSide * kSide;
  std::vector<float> x_values(kCount), z_values(kCount), identity(kChannels * kChannels, 0.0f);
  for (std::int64_t i = 0; i < kCount; ++i) {
    x_values[i] = static_cast<float>((i * 37) % 101) - 50.25f;
    z_values[i] = static_cast<float>((i * 53) % 89) - 44.5f;
  }
  for (std::int64_t c = 0; c < kChannels; ++c) identity[c * kChannels + c] = 1.0f;
  const Tensor x = Tensor::from_vector<float>({1, kChannels, kSide, kSide}, x_values).channels_last();
  const Tensor z = Tensor::from_vector<float>({1, kChannels, kSide, kSide}, z_values).channels_last();
  const Tensor w = Tensor::from_vector<float>({kChannels, kChannels, 1, 1}, identity);
  const Node node{"conv", "FusedConv", "asc", attrs({{"activation", std::string("Relu")}}), {"x", "W", "", "z"}, {"y"}, {}};
  KernelContext context{node, 1, {&x, &w, nullptr, &z}, std::vector<Tensor>(1), 2};
  context.channels_last_outputs = {true};
  std::vector<int> visits(kCount, 0);
  std::atomic<std::int64_t> unfinished{0};
  context.output_epilogue = [&](Tensor& y, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      ++visits[static_cast<std::size_t>(i)];
      // Memory order i is channels-last: pixel i / C, channel i % C; x and z share the layout.
      const float sum = x.data<float>()[i] + z.data<float>()[i];
      if (y.data<float>()[i] != (sum < 0.0f ? 0.0f : sum)) ++unfinished;
    }
  };
  fused("FusedConv").compute(context);
  CHECK(context.output_epilogue_done);
  CHECK(unfinished == 0);
  CHECK(std::count(visits.begin(), visits.end(), 1) == kCount);
}
#endif

TEST_CASE("asc.FusedConv: Clip (ReLU6) in place, on the Conv's pieces and on the whole output, as the Clip kernel") {
  // An identity 1x1 Conv on channel 0 = [NaN, -3, -inf], channel 1 = [7, 2.5, 1]; the zero weights
  // carry the non-finite values across (0 x NaN, 0 x -inf): output channel 0 = [NaN, -3, -inf],
  // channel 1 = [NaN, 2.5, NaN], plus the residual where given. Clip keeps NaN, and an omitted
  // (infinite) bound is the float's extreme: max(-inf, lowest) = lowest.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float lowest = std::numeric_limits<float>::lowest();
  const Tensor x_plain = Tensor::from_vector<float>({1, 2, 1, 3}, {nan, -3.0f, -inf, 7.0f, 2.5f, 1.0f});
  const Tensor w = Tensor::from_vector<float>({2, 2, 1, 1}, {1.0f, 0.0f, 0.0f, 1.0f});
  const Tensor z_plain = Tensor::from_vector<float>({1, 2, 1, 3}, {1.0f, 4.0f, 0.0f, -2.0f, 4.0f, 0.5f});
  struct Case {
    std::vector<float> bounds;
    bool residual;
    std::vector<double> expected;
  };
  const std::vector<Case> cases{
      {{0, 6}, false, {nan, 0, 0, nan, 2.5, nan}},
      {{0, 6}, true, {nan, 1, 0, nan, 6, nan}},  // + z: [NaN, 1, -inf], [NaN, 6.5, NaN]
      {{-inf, 6}, false, {nan, -3, lowest, nan, 2.5, nan}},
      {{-2, inf}, false, {nan, -2, -2, nan, 2.5, nan}},
  };
  for (const bool channels_last : {true, false}) {
    const Tensor x = channels_last ? x_plain.channels_last() : x_plain;
    const Tensor z = channels_last ? z_plain.channels_last() : z_plain;
    for (const Case& c : cases) {
      CAPTURE(channels_last);
      CAPTURE(c.bounds[0]);
      CAPTURE(c.residual);
      const Node node{"conv", "FusedConv", "asc",
                      attrs({{"activation", std::string("Clip")}, {"activation_params", c.bounds}}),
                      {"x", "W", "", c.residual ? "z" : ""}, {"y"}, {}};
      KernelContext context{node, 1, {&x, &w, nullptr, c.residual ? &z : nullptr}, std::vector<Tensor>(1), 2};
      context.channels_last_outputs = {channels_last};
      fused("FusedConv").compute(context);
      const std::vector<double> y = context.outputs[0].to_doubles();
      REQUIRE(y.size() == c.expected.size());
      for (std::size_t i = 0; i < y.size(); ++i) {
        CAPTURE(i);
        if (std::isnan(c.expected[i]))
          CHECK(std::isnan(y[i]));
        else
          CHECK(y[i] == c.expected[i]);
      }
    }
  }
}

TEST_CASE("asc.FusedConv keeps its inner Conv in its KernelState: repeated calls and other inputs present") {
  // The 1x1 Conv above on x0 = [1, -3], x1 = [2, 0.5]: [-1, -3.5], [2, -6]; with the bias [1, 2]:
  // [0, -2.5], [4, -4]; ReLU: [0, 0], [4, 0]. Without the bias, ReLU of the plain Conv: [0, 0], [2, 0].
  const Tensor x = Tensor::from_vector<float>({1, 2, 1, 2}, {1.0f, -3.0f, 2.0f, 0.5f}).channels_last();
  const Tensor w = Tensor::from_vector<float>({2, 2, 1, 1}, {1.0f, -1.0f, 2.0f, 0.0f});
  const Tensor b = Tensor::from_vector<float>({2}, {1.0f, 2.0f});
  const Node node{"conv", "FusedConv", "asc", attrs({{"activation", std::string("Relu")}}), {"x", "W", "b"}, {"y"}, {}};
  KernelState state;
  auto run = [&](const Tensor* bias) {
    KernelContext context{node, 1, {&x, &w, bias}, std::vector<Tensor>(1), 2};
    context.channels_last_outputs = {true};
    context.state = &state;
    fused("FusedConv").compute(context);
    return context.outputs[0].to_doubles();
  };
  for (int call = 0; call < 3; ++call) {
    CAPTURE(call);
    CHECK(run(&b) == std::vector<double>{0, 0, 4, 0});
  }
  CHECK(run(nullptr) == std::vector<double>{0, 0, 2, 0});  // another input set than the kept one
  CHECK(run(&b) == std::vector<double>{0, 0, 4, 0});
}

TEST_CASE("asc.FusedConv: a broadcast residual takes the whole-tensor path, the caller's epilogue left to it") {
  // The 1x1 Conv of the test above on x0 = [1, -3], x1 = [2, 0.5]: channel 0 = x0 - x1 = [-1, -3.5],
  // channel 1 = 2 x0 = [2, -6]; plus a per-channel residual [0.5, 1] (shape [1, 2, 1, 1]), then
  // ReLU: [0, 0], [3, 0]. The Conv's pieces see a residual unlike the output and decline.
  const Tensor x = Tensor::from_vector<float>({1, 2, 1, 2}, {1.0f, -3.0f, 2.0f, 0.5f}).channels_last();
  const Tensor w = Tensor::from_vector<float>({2, 2, 1, 1}, {1.0f, -1.0f, 2.0f, 0.0f});
  const Tensor z = Tensor::from_vector<float>({1, 2, 1, 1}, {0.5f, 1.0f});
  const Node node{"conv", "FusedConv", "asc", attrs({{"activation", std::string("Relu")}}), {"x", "W", "", "z"}, {"y"}, {}};
  int visits = 0;
  KernelContext context{node, 1, {&x, &w, nullptr, &z}, std::vector<Tensor>(1), 2};
  context.channels_last_outputs = {true};
  context.output_epilogue = [&visits](Tensor&, std::int64_t begin, std::int64_t end) { visits += static_cast<int>(end - begin); };
  fused("FusedConv").compute(context);
  CHECK_FALSE(context.output_epilogue_done);
  CHECK(visits == 0);
  CHECK(context.outputs[0].to_doubles() == std::vector<double>{0, 0, 3, 0});
}

TEST_CASE("asc.FusedMatMul applies bias then activation") {
  const Tensor a = Tensor::from_vector<float>({2, 2}, {1, -2, 3, 4});
  const Tensor b = Tensor::from_vector<float>({2, 2}, {1, 0, 0, 1});
  const Tensor bias = Tensor::from_vector<float>({2}, {0.5f, -10});
  Node node{"mm", "FusedMatMul", "asc", attrs({{"activation", std::string("Clip")}, {"activation_params", std::vector<float>{0, 3}}}),
            {"a", "b", "bias"}, {"y"}, {}};
  // a·I + bias = [[1.5,-12],[3.5,-6]], clipped to [0,3].
  CHECK(run_kernel(fused("FusedMatMul"), node, {&a, &b, &bias}).to_doubles() == std::vector<double>{1.5, 0, 3, 0});
}

// Small integers and halves: every product, sum and bias addition is exact in float, so the
// kernel must match the double loop exactly whichever way it splits the work.
TEST_CASE("asc.FusedMatMul adds per-column and per-row biases over many rows, on 1 and 3 threads") {
  constexpr std::int64_t kBatch = 3, kRows = 40, kInner = 8, kColumns = 1024;
  std::vector<float> a_values(kBatch * kRows * kInner), b_values(kInner * kColumns);
  for (std::size_t i = 0; i < a_values.size(); ++i) a_values[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
  for (std::size_t i = 0; i < b_values.size(); ++i) b_values[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  const Tensor a = Tensor::from_vector<float>({kBatch, kRows, kInner}, a_values);
  const Tensor b = Tensor::from_vector<float>({kInner, kColumns}, b_values);
  std::vector<float> column_bias(kColumns), row_bias(kRows);
  for (std::int64_t j = 0; j < kColumns; ++j) column_bias[j] = 0.5f * static_cast<float>(j % 9);
  for (std::int64_t r = 0; r < kRows; ++r) row_bias[r] = -0.5f * static_cast<float>(r);
  const Tensor per_column = Tensor::from_vector<float>({1, kColumns}, column_bias);
  const Tensor per_row = Tensor::from_vector<float>({kRows, 1}, row_bias);
  Node node{"mm", "FusedMatMul", "asc", {}, {"a", "b", "bias"}, {"y"}, {}};
  for (const bool by_column : {true, false}) {
    std::vector<double> expected;
    for (std::int64_t n = 0; n < kBatch; ++n)
      for (std::int64_t r = 0; r < kRows; ++r)
        for (std::int64_t j = 0; j < kColumns; ++j) {
          double sum = by_column ? column_bias[j] : row_bias[r];
          for (std::int64_t i = 0; i < kInner; ++i)
            sum += static_cast<double>(a_values[(n * kRows + r) * kInner + i]) * b_values[i * kColumns + j];
          expected.push_back(sum);
        }
    for (const int threads : {1, 3}) {
      CAPTURE(by_column);
      CAPTURE(threads);
      const Tensor y = run_kernel(fused("FusedMatMul"), node, {&a, &b, by_column ? &per_column : &per_row}, threads);
      CHECK(y.shape() == Shape{kBatch, kRows, kColumns});
      CHECK(y.to_doubles() == expected);
    }
  }
}

TEST_CASE("asc.Attention infers [batch, sequence, value width]") {
  const ValueInfo x = ValueInfo::from_shape("x", DType::Float32, {2, 5, 8});
  const ValueInfo w = ValueInfo::from_shape("w", DType::Float32, {8, 8});
  const ValueInfo wv = ValueInfo::from_shape("wv", DType::Float32, {8, 6});
  Node node{"att", "Attention", "asc", attrs({{"num_heads", std::int64_t{2}}}), {}, {"y"}, {}};
  const ValueInfo y = infer(fused("Attention"), node, {&x, &w, nullptr, &x, &w, nullptr, &x, &wv, nullptr});
  CHECK(y.static_shape() == Shape{2, 5, 6});
  CHECK(fused("Attention").cost(CostContext{node, {&x, &w, nullptr, &x, &w, nullptr, &x, &wv, nullptr}, {&y}}).unit ==
        ComputeUnit::Cube);
}

}  // namespace
}  // namespace asc::fusion_test
