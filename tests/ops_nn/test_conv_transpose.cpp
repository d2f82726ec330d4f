// ConvTranspose against a float64 scatter (nn_reference.hpp) and ONNX's documented example.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "nn_reference.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

using Ints = std::vector<std::int64_t>;

void check_transpose(const Shape& x_shape, const Shape& w_shape, const ConvSpec& spec, const Shape& y_spatial,
                     bool with_bias, Attributes attrs, std::uint32_t seed, int threads = 1) {
  const Tensor x = random_tensor(x_shape, seed);
  const Tensor w = random_tensor(w_shape, seed + 1);
  const Tensor b = random_tensor({w_shape[1] * spec.group}, seed + 2);
  const std::vector<double> bias = b.to_doubles();
  Shape y_shape;
  const std::vector<double> expected =
      scatter_conv_transpose(x.to_doubles(), x_shape, w.to_doubles(), w_shape, with_bias ? &bias : nullptr,
                             spec, y_spatial, y_shape);
  OpCall op{"ConvTranspose", 11, std::move(attrs)};
  op.threads = threads;
  check_all_close(op.run_one(with_bias ? std::vector<Tensor>{x, w, b} : std::vector<Tensor>{x, w}), y_shape,
                  expected, 1e-4, 1e-5);
}

}  // namespace

TEST_CASE("ConvTranspose: ONNX's documented 3x3 example") {
  std::vector<float> xv(9);
  for (int i = 0; i < 9; ++i) xv[static_cast<std::size_t>(i)] = static_cast<float>(i);
  const Tensor x = Tensor::from_vector<float>({1, 1, 3, 3}, xv);
  const Tensor w = Tensor::from_vector<float>({1, 2, 3, 3}, std::vector<float>(18, 1.0f));
  const std::vector<double> plane{0,  1,  3, 3,  2,  3,  8,  15, 12, 7,  9,  21, 36,
                                  27, 15, 9, 20, 33, 24, 13, 6,  13, 21, 15, 8};
  std::vector<double> expected(plane);
  expected.insert(expected.end(), plane.begin(), plane.end());
  check_all_close(OpCall{"ConvTranspose", 11, {}}.run_one({x, w}), {1, 2, 5, 5}, expected, 0, 0);
}

TEST_CASE("ConvTranspose: strides with output_padding") {
  // 3 * (3 - 1) + 1 + 3 = 10 rows, 2 * (3 - 1) + 1 + 3 = 8 columns.
  check_transpose({1, 1, 3, 3}, {1, 2, 3, 3}, {1, {3, 2}, {1, 1}, {0, 0}, {0, 0}}, {10, 8}, false,
                  attrs({{"strides", Ints{3, 2}}, {"output_padding", Ints{1, 1}}}), 10);
}

TEST_CASE("ConvTranspose: groups, pads, output_padding and bias") {
  // 2 * (4 - 1) + 1 + 3 - 2 = 8
  check_transpose({2, 4, 4, 4}, {4, 3, 3, 3}, {2, {2, 2}, {1, 1}, {1, 1}, {1, 1}}, {8, 8}, true,
                  attrs({{"group", std::int64_t{2}},
                         {"strides", Ints{2, 2}},
                         {"pads", Ints{1, 1, 1, 1}},
                         {"output_padding", Ints{1, 1}}}),
                  20);
}

TEST_CASE("ConvTranspose: threads give the same result") {
  for (int threads : {2, 5})
    check_transpose({2, 4, 4, 4}, {4, 3, 3, 3}, {2, {2, 2}, {1, 1}, {1, 1}, {1, 1}}, {7, 7}, true,
                    attrs({{"group", std::int64_t{2}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}),
                    25, threads);
}

TEST_CASE("ConvTranspose: dilations and asymmetric pads") {
  // H: (4 - 1) + 3 - 1 - 0 = 5; W: (5 - 1) + 3 - 0 - 2 = 5
  check_transpose({1, 2, 4, 5}, {2, 3, 2, 2}, {1, {1, 1}, {2, 2}, {1, 0}, {0, 2}}, {5, 5}, true,
                  attrs({{"dilations", Ints{2, 2}}, {"pads", Ints{1, 0, 0, 2}}}), 30);
}

TEST_CASE("ConvTranspose: 1-D and 3-D") {
  check_transpose({2, 3, 5}, {3, 2, 3}, {1, {2}, {1}, {1}, {0}}, {10}, true,
                  attrs({{"strides", Ints{2}}, {"pads", Ints{1, 0}}}), 40);
  // D: 2 + 2 = 4; H: 2 * 3 + 3 = 9; W: 2 * 2 + 2 = 6
  check_transpose({1, 2, 3, 4, 3}, {2, 1, 2, 3, 2}, {1, {1, 2, 2}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}},
                  {4, 9, 6}, false, attrs({{"strides", Ints{1, 2, 2}}}), 50);
}

TEST_CASE("ConvTranspose: output_shape sets the pads") {
  // Natural size 9 x 7 with strides [3, 2]: output_shape [10, 8] extends at the end ...
  check_transpose({1, 1, 3, 3}, {1, 2, 3, 3}, {1, {3, 2}, {1, 1}, {0, 0}, {-1, -1}}, {10, 8}, false,
                  attrs({{"strides", Ints{3, 2}}, {"output_shape", Ints{10, 8}}}), 60);
  // ... and [8, 6] crops one: total padding 1 goes to the beginning unless SAME_UPPER.
  check_transpose({1, 1, 3, 3}, {1, 2, 3, 3}, {1, {3, 2}, {1, 1}, {1, 1}, {0, 0}}, {8, 6}, false,
                  attrs({{"strides", Ints{3, 2}}, {"output_shape", Ints{8, 6}}}), 61);
  check_transpose(
      {1, 1, 3, 3}, {1, 2, 3, 3}, {1, {3, 2}, {1, 1}, {0, 0}, {1, 1}}, {8, 6}, false,
      attrs({{"strides", Ints{3, 2}}, {"output_shape", Ints{8, 6}}, {"auto_pad", std::string("SAME_UPPER")}}),
      62);
}

TEST_CASE("ConvTranspose: auto_pad gives input * stride") {
  // kernel 3, stride 2: total padding 1, at the end for SAME_UPPER, at the beginning for SAME_LOWER.
  check_transpose({1, 1, 3, 3}, {1, 2, 3, 3}, {1, {2, 2}, {1, 1}, {0, 0}, {1, 1}}, {6, 6}, false,
                  attrs({{"strides", Ints{2, 2}}, {"auto_pad", std::string("SAME_UPPER")}}), 70);
  check_transpose({1, 1, 3, 3}, {1, 2, 3, 3}, {1, {2, 2}, {1, 1}, {1, 1}, {0, 0}}, {6, 6}, false,
                  attrs({{"strides", Ints{2, 2}}, {"auto_pad", std::string("SAME_LOWER")}}), 71);
}

TEST_CASE("ConvTranspose: inference, cost and errors") {
  const OpCall op{"ConvTranspose", 11, attrs({{"strides", Ints{2, 2}}, {"group", std::int64_t{2}}})};
  const ValueInfo x{"x", DType::Float32, std::vector<Dim>{Dim::symbolic("batch"), 4, 5, 6}};
  const ValueInfo w{"w", DType::Float32, std::vector<Dim>{4, 3, 3, 3}};
  const ValueInfo y = op.infer({x, w}).at(0);
  // 2 * (5 - 1) + 3 = 11, 2 * (6 - 1) + 3 = 13; channels W[1] * group.
  CHECK(*y.shape == std::vector<Dim>{Dim::symbolic("batch"), 6, 11, 13});
  const OpCall fixed{"ConvTranspose", 11, attrs({{"output_shape", Ints{12, 14}}, {"strides", Ints{2, 2}}})};
  const ValueInfo w1{"w", DType::Float32, std::vector<Dim>{4, 3, 3, 3}};
  CHECK(*fixed.infer({x, w1}).at(0).shape == std::vector<Dim>{Dim::symbolic("batch"), 3, 12, 14});

  const CostFacts facts = op.cost({ValueInfo::from_shape("x", DType::Float32, {1, 4, 5, 6}),
                                   ValueInfo::from_shape("w", DType::Float32, {4, 3, 3, 3})},
                                  {ValueInfo::from_shape("y", DType::Float32, {1, 6, 11, 13})});
  CHECK(facts.unit == ComputeUnit::Cube);
  CHECK(facts.flops == doctest::Approx(2.0 * (4 * 5 * 6) * 3 * 9));

  const Tensor xt = random_tensor({1, 4, 3, 3}, 1);
  const Tensor wt = random_tensor({4, 3, 3, 3}, 2);
  auto error = [&](Attributes attrs, const std::vector<Tensor>& inputs) {
    return thrown_code([&] { OpCall{"ConvTranspose", 11, std::move(attrs)}.run(inputs); });
  };
  CHECK(error(attrs({{"output_padding", Ints{2, 0}}, {"strides", Ints{2, 2}}}), {xt, wt}) ==
        ErrorCode::InvalidOperator);
  CHECK(error(attrs({{"group", std::int64_t{3}}}), {xt, wt}) == ErrorCode::InvalidOperator);
  CHECK(error({}, {xt, random_tensor({3, 3, 3, 3}, 3)}) == ErrorCode::InvalidOperator);
  CHECK(error(attrs({{"output_shape", Ints{5}}}), {xt, wt}) == ErrorCode::InvalidOperator);
  CHECK(error(attrs({{"pads", Ints{3, 3, 3, 3}}}), {xt, wt}) == ErrorCode::InvalidOperator);  // 5 - 6 < 1
}

}  // namespace asc::test
