// RNN, GRU and LSTM on one-unit networks whose recurrences can be followed by hand.
#include <cmath>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

Tensor f32(Shape shape, std::vector<float> values) { return Tensor::from_vector<float>(std::move(shape), values); }

// h_t = relu(x_t + 0.5 h_{t-1}). Row 0: x = 1, 2, 3 gives 1, 2.5, 4.25 forwards and (from t = 2
// down) 3, 3.5, 2.75 backwards. Row 1: x = 0, 1, 0 gives 0, 1, 0.5 and 0, 1, 0.5.
Attributes relu_rnn(const std::string& direction) {
  return attrs({{"hidden_size", std::int64_t{1}}, {"direction", direction},
                {"activations", std::vector<std::string>(direction == "bidirectional" ? 2 : 1, "Relu")}});
}
Tensor rnn_w(std::int64_t dirs) { return f32({dirs, 1, 1}, std::vector<float>(static_cast<std::size_t>(dirs), 1.0f)); }
Tensor rnn_r(std::int64_t dirs) { return f32({dirs, 1, 1}, std::vector<float>(static_cast<std::size_t>(dirs), 0.5f)); }

TEST_CASE("RNN forward, reverse and bidirectional") {
  const Tensor x = f32({3, 2, 1}, {1, 0, 2, 1, 3, 0});  // [seq, batch, input]
  auto out = run_op("RNN", 14, {x, rnn_w(1), rnn_r(1)}, relu_rnn("forward"), 2);
  check_close(out[0], {3, 1, 2, 1}, {1, 0, 2.5, 1, 4.25, 0.5});
  check_close(out[1], {1, 2, 1}, {4.25, 0.5});
  out = run_op("RNN", 14, {x, rnn_w(1), rnn_r(1)}, relu_rnn("reverse"), 2);
  check_close(out[0], {3, 1, 2, 1}, {2.75, 0.5, 3.5, 1, 3, 0});
  check_close(out[1], {1, 2, 1}, {2.75, 0.5});
  out = run_op("RNN", 14, {x, rnn_w(2), rnn_r(2)}, relu_rnn("bidirectional"), 2);
  check_close(out[0], {3, 2, 2, 1}, {1, 0, 2.75, 0.5, 2.5, 1, 3.5, 1, 4.25, 0.5, 3, 0});
  check_close(out[1], {2, 2, 1}, {4.25, 0.5, 2.75, 0.5});
}

TEST_CASE("RNN batch-first layout (opset 14) transposes inputs and outputs") {
  const Tensor x = f32({2, 3, 1}, {1, 2, 3, 0, 1, 0});  // [batch, seq, input]
  Attributes attributes = relu_rnn("bidirectional");
  attributes.set("layout", std::int64_t{1});
  const auto out = run_op("RNN", 14, {x, rnn_w(2), rnn_r(2)}, attributes, 2);
  check_close(out[0], {2, 3, 2, 1}, {1, 2.75, 2.5, 3.5, 4.25, 3, 0, 0.5, 1, 1, 0.5, 0});
  check_close(out[1], {2, 2, 1}, {4.25, 2.75, 0.5, 0.5});
}

TEST_CASE("RNN sequence_lens stops each row early and zero-fills Y") {
  const Tensor x = f32({3, 1, 1}, {1, 2, 3});
  const Tensor lengths = Tensor::from_vector<std::int32_t>({1}, {2});
  const auto out = run_op("RNN", 14, {x, rnn_w(2), rnn_r(2), Tensor(), lengths}, relu_rnn("bidirectional"), 2);
  // Forward: 1, 2.5. Backward over t = 1, 0: 2, then 1 + 0.5 * 2 = 2.
  check_close(out[0], {3, 2, 1, 1}, {1, 2, 2.5, 2, 0, 0});
  check_close(out[1], {2, 1, 1}, {2.5, 2});
}

TEST_CASE("GRU update and linear_before_reset") {
  // Only Rh = 1 and Rbh = 1 are non-zero, so z = r = 0.5 and H' = 0.5 * h + 0.5 * H with H = 2.
  const Tensor x = f32({1, 1, 1}, {0});
  const Tensor w = f32({1, 3, 1}, {0, 0, 0});
  const Tensor r = f32({1, 3, 1}, {0, 0, 1});
  const Tensor b = f32({1, 6}, {0, 0, 0, 0, 0, 1});
  const Tensor h0 = f32({1, 1, 1}, {2});
  Attributes attributes = attrs({{"hidden_size", std::int64_t{1}}});
  auto out = run_op("GRU", 14, {x, w, r, b, Tensor(), h0}, attributes, 2);
  check_close(out[1], {1, 1, 1}, {0.5 * std::tanh(0.5 * 2 * 1 + 1) + 1});  // h = g((r . H) Rh + Rbh)
  attributes.set("linear_before_reset", std::int64_t{1});
  out = run_op("GRU", 14, {x, w, r, b, Tensor(), h0}, attributes, 2);
  check_close(out[1], {1, 1, 1}, {0.5 * std::tanh(0.5 * (2 * 1 + 1)) + 1});  // h = g(r . (H Rh + Rbh))
  // All-zero weights halve the state every step: 8 -> 4 -> 2 -> 1.
  out = run_op("GRU", 14, {f32({3, 1, 1}, {5, -5, 5}), w, f32({1, 3, 1}, {0, 0, 0}), Tensor(), Tensor(), f32({1, 1, 1}, {8})},
               attrs({{"hidden_size", std::int64_t{1}}}), 2);
  check_close(out[0], {3, 1, 1, 1}, {4, 2, 1});
}

TEST_CASE("LSTM cell state, peepholes and Y_c") {
  // Zero weights: i = f = o = 0.5, candidate 0, so C halves and H = 0.5 * tanh(C).
  const Tensor x = f32({2, 1, 1}, {3, -3});
  const Tensor w = f32({1, 4, 1}, {0, 0, 0, 0});
  const Tensor r = f32({1, 4, 1}, {0, 0, 0, 0});
  const Tensor h0 = f32({1, 1, 1}, {0});
  const Tensor c0 = f32({1, 1, 1}, {4});
  auto out = run_op("LSTM", 14, {x, w, r, Tensor(), Tensor(), h0, c0}, attrs({{"hidden_size", std::int64_t{1}}}), 3);
  check_close(out[0], {2, 1, 1, 1}, {0.5 * std::tanh(2.0), 0.5 * std::tanh(1.0)});
  check_close(out[2], {1, 1, 1}, {1});
  // A forget peephole of 1: f = sigmoid(C) on the first step.
  const Tensor p = f32({1, 3}, {0, 0, 1});
  out = run_op("LSTM", 14, {f32({1, 1, 1}, {0}), w, r, Tensor(), Tensor(), h0, c0, p},
               attrs({{"hidden_size", std::int64_t{1}}}), 3);
  const double c1 = 4.0 / (1.0 + std::exp(-4.0));
  check_close(out[2], {1, 1, 1}, {c1});
  check_close(out[1], {1, 1, 1}, {0.5 * std::tanh(c1)});
}

TEST_CASE("Recurrent inference, cost and errors") {
  const auto out = infer_op("LSTM", 14,
                            {ValueInfo{"", DType::Float32, std::vector<Dim>{Dim::symbolic("t"), 2, 5}},
                             ValueInfo::from_shape("w", DType::Float32, {2, 28, 5}),
                             ValueInfo::from_shape("r", DType::Float32, {2, 28, 7})},
                            attrs({{"hidden_size", std::int64_t{7}}, {"direction", std::string("bidirectional")}}), 3);
  CHECK(*out[0].shape == std::vector<Dim>{Dim::symbolic("t"), 2, 2, 7});
  CHECK(*out[2].shape == std::vector<Dim>{2, 2, 7});
  const CostFacts facts = cost_op("RNN", 14,
                                  {ValueInfo::from_shape("x", DType::Float32, {3, 2, 5}),
                                   ValueInfo::from_shape("w", DType::Float32, {1, 4, 5}),
                                   ValueInfo::from_shape("r", DType::Float32, {1, 4, 4})},
                                  {ValueInfo::from_shape("y", DType::Float32, {3, 1, 2, 4})});
  CHECK(facts.flops == doctest::Approx(2.0 * 3 * 2 * 4 * (5 + 4)));
  CHECK(thrown_code([] {
          run_op("RNN", 14, {f32({1, 1, 1}, {0}), rnn_w(1), rnn_r(1)}, attrs({{"direction", std::string("sideways")}}), 2);
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] {
          run_op("RNN", 14, {f32({1, 1, 1}, {0}), rnn_w(1), rnn_r(1)},
                 attrs({{"activations", std::vector<std::string>{"Swish"}}}), 2);
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] { run_op("RNN", 14, {f32({1, 1, 1}, {0}), rnn_w(2), rnn_r(1)}, {}, 2); }) ==
        ErrorCode::InvalidOperator);
}

}  // namespace
}  // namespace asc::test
