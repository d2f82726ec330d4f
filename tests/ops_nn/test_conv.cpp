// Conv and ConvInteger against a direct float64 convolution (nn_reference.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <tuple>

#include <asc/sdk/half.hpp>

#include "op_testing.hpp"
#include "nn_reference.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

using Ints = std::vector<std::int64_t>;

// Runs Conv with `attrs` on random data and compares with the direct convolution under `spec`.
// The float64 reference is computed once and compared with the kernel's output on each of
// `thread_counts`.
void check_conv(const Shape& x_shape, const Shape& w_shape, const ConvSpec& spec, bool with_bias,
                Attributes attrs, std::uint32_t seed, std::initializer_list<int> thread_counts = {1}) {
  const Tensor x = random_tensor(x_shape, seed);
  const Tensor w = random_tensor(w_shape, seed + 1);
  const Tensor b = random_tensor({w_shape[0]}, seed + 2);
  const std::vector<double> bias = b.to_doubles();
  Shape y_shape;
  const std::vector<double> expected = direct_conv(x.to_doubles(), x_shape, w.to_doubles(), w_shape,
                                                   with_bias ? &bias : nullptr, spec, y_shape);
  OpCall conv{"Conv", 13, std::move(attrs)};
  for (const int threads : thread_counts) {
    CAPTURE(threads);
    conv.threads = threads;
    const Tensor y = conv.run_one(with_bias ? std::vector<Tensor>{x, w, b} : std::vector<Tensor>{x, w});
    check_all_close(y, y_shape, expected, 1e-4, 1e-5);
  }
}

}  // namespace

TEST_CASE("Conv: plain 3x3 with padding and bias") {
  check_conv({2, 3, 7, 6}, {4, 3, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, true,
             attrs({{"pads", Ints{1, 1, 1, 1}}}), 10);
}

TEST_CASE("Conv: groups") {
  check_conv({2, 4, 7, 7}, {6, 2, 3, 3}, {2, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, true,
             attrs({{"group", std::int64_t{2}}, {"pads", Ints{1, 1, 1, 1}}}), 20);
}

TEST_CASE("Conv: depthwise with stride 2") {
  check_conv({1, 3, 8, 9}, {3, 1, 3, 3}, {3, {2, 2}, {1, 1}, {1, 1}, {1, 1}}, true,
             attrs({{"group", std::int64_t{3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}), 30);
}

TEST_CASE("Conv: depthwise (direct kernel) with dilation, asymmetric pads, no bias and several threads") {
  // 5 channels x 2 images: planes shared between the threads; pads larger than the dilated reach.
  check_conv({2, 5, 11, 10}, {5, 1, 3, 3}, {5, {1, 2}, {2, 1}, {2, 0}, {1, 3}}, false,
             attrs({{"group", std::int64_t{5}}, {"strides", Ints{1, 2}}, {"dilations", Ints{2, 1}},
                    {"pads", Ints{2, 0, 1, 3}}}),
             60, {1, 2, 3});
  check_conv({1, 4, 14, 14}, {4, 1, 5, 5}, {4, {1, 1}, {1, 1}, {2, 2}, {2, 2}}, true,
             attrs({{"group", std::int64_t{4}}, {"pads", Ints{2, 2, 2, 2}}}), 61, {1, 2, 3});
  // 1-D and 3-D windows take the same path.
  check_conv({1, 3, 17}, {3, 1, 4}, {3, {3}, {1}, {1}, {2}}, true,
             attrs({{"group", std::int64_t{3}}, {"strides", Ints{3}}, {"pads", Ints{1, 2}}}), 62, {2});
  check_conv({1, 2, 4, 5, 6}, {2, 1, 2, 3, 3}, {2, {1, 1, 2}, {1, 1, 1}, {1, 1, 1}, {0, 1, 1}}, true,
             attrs({{"group", std::int64_t{2}}, {"strides", Ints{1, 1, 2}}, {"pads", Ints{1, 1, 1, 0, 1, 1}}}), 63, {2});
}

// The 3x3 depthwise kernel (one pass per output row, edge columns apart): every stride it takes,
// rows as narrow as the window or narrower, pads of 0 to 2 on either side, one and two threads.
TEST_CASE("Conv: depthwise 3x3 rows of 1 to 15 columns, strides 1 and 2, pads 0 to 2") {
  std::uint32_t seed = 70;
  for (const std::int64_t width : {1, 2, 3, 4, 7, 15})
    for (const std::int64_t stride : {1, 2})
      for (const Ints& pads : {Ints{0, 0, 0, 0}, Ints{1, 1, 1, 1}, Ints{2, 0, 0, 2}, Ints{0, 2, 1, 0}}) {
        if (width + pads[1] + pads[3] < 3) continue;  // no output column
        CAPTURE(width);
        CAPTURE(stride);
        CAPTURE(pads[1]);
        CAPTURE(pads[3]);
        ++seed;
        check_conv({1, 3, 6, width}, {3, 1, 3, 3}, {3, {stride, stride}, {1, 1}, {pads[0], pads[1]}, {pads[2], pads[3]}},
                   true, attrs({{"group", std::int64_t{3}}, {"strides", Ints{stride, stride}}, {"pads", pads}}), seed,
                   {seed % 2 == 0 ? 2 : 1});
      }
}

TEST_CASE("Conv: dilation 2") {
  check_conv({1, 2, 9, 8}, {3, 2, 3, 3}, {1, {1, 1}, {2, 2}, {2, 1}, {2, 1}}, false,
             attrs({{"dilations", Ints{2, 2}}, {"pads", Ints{2, 1, 2, 1}}}), 40);
}

TEST_CASE("Conv: stride 2 with asymmetric pads") {
  // pads = [h_begin, w_begin, h_end, w_end]
  check_conv({1, 2, 6, 5}, {2, 2, 3, 3}, {1, {2, 2}, {1, 1}, {1, 0}, {2, 1}}, true,
             attrs({{"strides", Ints{2, 2}}, {"pads", Ints{1, 0, 2, 1}}}), 50);
}

TEST_CASE("Conv: SAME_UPPER puts the odd pad at the end, SAME_LOWER at the beginning") {
  // H: input 5, kernel 4, stride 1 -> output 5, total pad 3. W: input 6, kernel 3, stride 2 ->
  // output 3, total pad (3 - 1) * 2 + 3 - 6 = 1.
  check_conv({1, 2, 5, 6}, {3, 2, 4, 3}, {1, {1, 2}, {1, 1}, {1, 0}, {2, 1}}, true,
             attrs({{"auto_pad", std::string("SAME_UPPER")}, {"strides", Ints{1, 2}}}), 60);
  check_conv({1, 2, 5, 6}, {3, 2, 4, 3}, {1, {1, 2}, {1, 1}, {2, 1}, {1, 0}}, true,
             attrs({{"auto_pad", std::string("SAME_LOWER")}, {"strides", Ints{1, 2}}}), 60);
}

TEST_CASE("Conv: VALID ignores padding") {
  check_conv({1, 1, 6, 6}, {1, 1, 3, 3}, {1, {2, 2}, {1, 1}, {0, 0}, {0, 0}}, false,
             attrs({{"auto_pad", std::string("VALID")}, {"strides", Ints{2, 2}}}), 65);
}

TEST_CASE("Conv: 1-D with stride, dilation and pads") {
  check_conv({2, 3, 11}, {4, 3, 3}, {1, {2}, {2}, {1}, {2}}, true,
             attrs({{"strides", Ints{2}}, {"dilations", Ints{2}}, {"pads", Ints{1, 2}}}), 70);
}

TEST_CASE("Conv: 3-D with bias") {
  check_conv({1, 2, 5, 6, 4}, {3, 2, 3, 2, 2}, {1, {2, 1, 1}, {1, 1, 1}, {1, 0, 1}, {1, 1, 0}}, true,
             attrs({{"strides", Ints{2, 1, 1}}, {"pads", Ints{1, 0, 1, 1, 1, 0}}}), 80);
}

TEST_CASE("Conv: 1x1 pointwise and a ResNet-style 7x7 stride-2 stem") {
  check_conv({2, 5, 4, 3}, {7, 5, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, true, {}, 90);
  check_conv({1, 3, 20, 18}, {8, 3, 7, 7}, {1, {2, 2}, {1, 1}, {3, 3}, {3, 3}}, false,
             attrs({{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}, {"kernel_shape", Ints{7, 7}}}), 95);
}

TEST_CASE("Conv: a batch of at least two images per thread is shared out by image") {
  check_conv({6, 4, 9, 9}, {10, 2, 3, 3}, {2, {2, 1}, {1, 1}, {1, 1}, {1, 1}}, true,
             attrs({{"group", std::int64_t{2}}, {"strides", Ints{2, 1}}, {"pads", Ints{1, 1, 1, 1}}}), 98, {2, 3});
  check_conv({7, 3, 20, 20}, {5, 3, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, false, {}, 99, {2, 3});
}

TEST_CASE("Conv: threads split the output channels without changing the result") {
  check_conv({2, 4, 9, 9}, {10, 2, 3, 3}, {2, {2, 1}, {1, 1}, {1, 1}, {1, 1}}, true,
             attrs({{"group", std::int64_t{2}}, {"strides", Ints{2, 1}}, {"pads", Ints{1, 1, 1, 1}}}), 97,
             {2, 3, 16});
}

// Large outputs are unfolded and multiplied in blocks of output positions (conv/convolution.cpp);
// these shapes make blocks that start and end inside output rows, with padding on every side.
TEST_CASE("Conv: outputs larger than one block of positions, on one thread and several") {
  check_conv({1, 64, 23, 37}, {8, 64, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, true,
             attrs({{"pads", Ints{1, 1, 1, 1}}}), 96, {1, 2, 3});
  check_conv({1, 64, 45, 41}, {6, 64, 3, 3}, {1, {2, 2}, {2, 2}, {2, 1}, {0, 3}}, false,
             attrs({{"strides", Ints{2, 2}}, {"dilations", Ints{2, 2}}, {"pads", Ints{2, 1, 0, 3}}}), 98, {1, 2, 3});
  check_conv({1, 16, 160, 160}, {8, 16, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, true, {}, 99, {1, 2, 3});
  // Blocks are 1.5 MB of columns: these two make at least 6 blocks (2 per thread at 3 threads),
  // so every thread count takes the block-parallel path, 3x3 and pointwise.
  check_conv({1, 64, 70, 64}, {8, 64, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, true,
             attrs({{"pads", Ints{1, 1, 1, 1}}}), 110, {1, 2, 3});
  check_conv({1, 16, 400, 400}, {8, 16, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, false, {}, 111, {1, 2, 3});
}

TEST_CASE("Conv: float64 and float16 inputs") {
  const Tensor x = random_tensor({1, 2, 5, 5}, 100);
  const Tensor w = random_tensor({3, 2, 3, 3}, 101);
  Shape y_shape;
  const std::vector<double> expected = direct_conv(x.to_doubles(), x.shape(), w.to_doubles(), w.shape(),
                                                   nullptr, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, y_shape);
  const OpCall conv{"Conv", 13, attrs({{"pads", Ints{1, 1, 1, 1}}})};
  const Tensor y64 = conv.run_one({x.cast(DType::Float64), w.cast(DType::Float64)});
  CHECK(y64.dtype() == DType::Float64);
  check_all_close(y64, y_shape, expected, 1e-12, 1e-12);
  // float16 operands are rounded before the reference sees them, so compare loosely.
  const Tensor y16 = conv.run_one({x.cast(DType::Float16), w.cast(DType::Float16)});
  CHECK(y16.dtype() == DType::Float16);
  check_all_close(y16, y_shape, expected, 1e-2, 1e-2);
}

TEST_CASE("Conv: shape inference keeps a symbolic batch") {
  const OpCall conv{"Conv", 13, attrs({{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}})};
  ValueInfo x{"x", DType::Float32, std::vector<Dim>{Dim::symbolic("batch"), 3, 224, 224}};
  ValueInfo w{"w", DType::Float32, std::vector<Dim>{64, 3, 7, 7}};
  const ValueInfo y = conv.infer({x, w}).at(0);
  CHECK(y.dtype == DType::Float32);
  REQUIRE(y.shape.has_value());
  CHECK(*y.shape == std::vector<Dim>{Dim::symbolic("batch"), 64, 112, 112});

  // An unknown spatial size stays unknown; the rest is still inferred.
  x.shape = std::vector<Dim>{1, 3, Dim(), 30};
  const ValueInfo partial = conv.infer({x, w}).at(0);
  CHECK(*partial.shape == std::vector<Dim>{1, 64, Dim(), 15});

  // SAME_UPPER: ceil(input / stride).
  const OpCall same{"Conv", 13, attrs({{"auto_pad", std::string("SAME_UPPER")}, {"strides", Ints{2, 2}}})};
  x.shape = std::vector<Dim>{Dim::symbolic("n"), 3, 15, 16};
  CHECK(*same.infer({x, w}).at(0).shape == std::vector<Dim>{Dim::symbolic("n"), 64, 8, 8});
}

TEST_CASE("Conv: cost of the ResNet-50 stem") {
  const OpCall conv{"Conv", 13, attrs({{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}})};
  const ValueInfo x = ValueInfo::from_shape("x", DType::Float32, {1, 3, 224, 224});
  const ValueInfo w = ValueInfo::from_shape("w", DType::Float32, {64, 3, 7, 7});
  const ValueInfo y = ValueInfo::from_shape("y", DType::Float32, {1, 64, 112, 112});
  const CostFacts facts = conv.cost({x, w}, {y});
  CHECK(facts.unit == ComputeUnit::Cube);
  CHECK(facts.flops == doctest::Approx(236027904.0));  // 2 * 64 * 112 * 112 * 3 * 49
  CHECK(facts.bytes_read == (3 * 224 * 224 + 64 * 3 * 7 * 7) * 4);
  CHECK(facts.bytes_written == 64 * 112 * 112 * 4);
  // Grouped: each output sees only C/group input channels.
  const ValueInfo xg = ValueInfo::from_shape("x", DType::Float32, {1, 32, 10, 10});
  const ValueInfo wg = ValueInfo::from_shape("w", DType::Float32, {32, 1, 3, 3});
  const ValueInfo yg = ValueInfo::from_shape("y", DType::Float32, {1, 32, 10, 10});
  const OpCall depthwise{"Conv", 13, attrs({{"group", std::int64_t{32}}, {"pads", Ints{1, 1, 1, 1}}})};
  CHECK(depthwise.cost({xg, wg}, {yg}).flops == doctest::Approx(2.0 * 32 * 100 * 9));
}

TEST_CASE("Conv: invalid attributes and inputs throw InvalidOperator") {
  const Tensor x = random_tensor({1, 4, 5, 5}, 1);
  const Tensor w = random_tensor({6, 2, 3, 3}, 2);
  auto conv_error = [&](Attributes attrs, const std::vector<Tensor>& inputs) {
    return thrown_code([&] { OpCall{"Conv", 13, std::move(attrs)}.run(inputs); });
  };
  CHECK(conv_error(attrs({{"group", std::int64_t{3}}}), {x, w}) == ErrorCode::InvalidOperator);
  CHECK(conv_error({}, {x, w}) == ErrorCode::InvalidOperator);  // 4 channels vs 2 per group, 1 group
  CHECK(conv_error(attrs({{"group", std::int64_t{2}}, {"auto_pad", std::string("SAME")}}), {x, w}) ==
        ErrorCode::InvalidOperator);
  CHECK(conv_error(attrs({{"group", std::int64_t{2}}, {"strides", Ints{1}}}), {x, w}) ==
        ErrorCode::InvalidOperator);
  CHECK(conv_error(attrs({{"group", std::int64_t{2}}, {"strides", Ints{0, 1}}}), {x, w}) ==
        ErrorCode::InvalidOperator);
  CHECK(conv_error(attrs({{"group", std::int64_t{2}}, {"pads", Ints{1, 1, -1, 1}}}), {x, w}) ==
        ErrorCode::InvalidOperator);
  CHECK(conv_error(attrs({{"group", std::int64_t{2}}, {"kernel_shape", Ints{5, 5}}}), {x, w}) ==
        ErrorCode::InvalidOperator);
  CHECK(conv_error(attrs({{"group", std::int64_t{2}}, {"dilations", Ints{3, 3}}}), {x, w}) ==
        ErrorCode::InvalidOperator);  // extent 7 > 5
  CHECK(conv_error(attrs({{"group", std::int64_t{2}}}), {x, w, random_tensor({5}, 3)}) ==
        ErrorCode::InvalidOperator);  // bias of the wrong length
  CHECK(conv_error(attrs({{"group", std::int64_t{2}}}), {x.cast(DType::Int32), w.cast(DType::Int32)}) ==
        ErrorCode::OperatorDtypeUnsupported);
  // Inference catches what the shapes already show.
  const ValueInfo xi{"x", DType::Float32, std::vector<Dim>{Dim::symbolic("n"), 4, 5, 5}};
  const ValueInfo wi{"w", DType::Float32, std::vector<Dim>{6, 3, 3, 3}};
  CHECK(thrown_code([&] { OpCall{"Conv", 13, {}}.infer({xi, wi}); }) == ErrorCode::InvalidOperator);
  // Four spatial axes are valid ONNX but have no kernel here.
  const Tensor x4 = random_tensor({1, 1, 2, 2, 2, 2}, 4);
  const Tensor w4 = random_tensor({1, 1, 1, 1, 1, 1}, 5);
  CHECK(conv_error({}, {x4, w4}) == ErrorCode::UnsupportedOperator);
}

TEST_CASE("ConvInteger: uint8 with an input zero point (hand-computed)") {
  // x - 1 = [[1,2,3],[4,5,6],[7,8,9]]; a 2x2 window of ones sums each 2x2 block.
  const Tensor x = Tensor::from_vector<std::uint8_t>({1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10});
  const Tensor w = Tensor::from_vector<std::uint8_t>({1, 1, 2, 2}, {1, 1, 1, 1});
  const Tensor x_zero = Tensor::scalar<std::uint8_t>(1);
  const OpCall conv{"ConvInteger", 13, {}};
  const Tensor y = conv.run_one({x, w, x_zero});
  CHECK(y.dtype() == DType::Int32);
  check_all_close(y, {1, 1, 2, 2}, {12, 16, 24, 28}, 0, 0);
  // Padding reads as the zero point: with pads 1 the corner sees only x[0][0] - 1.
  const Tensor padded =
      OpCall{"ConvInteger", 13, attrs({{"pads", Ints{1, 1, 1, 1}}})}.run_one({x, w, x_zero});
  check_all_close(padded, {1, 1, 4, 4}, {1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}, 0, 0);
}

TEST_CASE("ConvInteger: int8 with per-channel weight zero points against a direct convolution") {
  std::mt19937 generator(7);
  std::uniform_int_distribution<int> values(-128, 127);
  std::vector<std::int8_t> xv(2 * 4 * 6 * 6), wv(6 * 2 * 3 * 3);
  for (auto& v : xv) v = static_cast<std::int8_t>(values(generator));
  for (auto& v : wv) v = static_cast<std::int8_t>(values(generator));
  const Tensor x = Tensor::from_vector<std::int8_t>({2, 4, 6, 6}, xv);
  const Tensor w = Tensor::from_vector<std::int8_t>({6, 2, 3, 3}, wv);
  const Tensor x_zero = Tensor::scalar<std::int8_t>(-3);
  const std::vector<std::int8_t> w_zeros{1, -2, 0, 5, -7, 3};
  const Tensor w_zero = Tensor::from_vector<std::int8_t>({6}, w_zeros);
  std::vector<double> xs(xv.begin(), xv.end()), ws(wv.begin(), wv.end());
  for (double& v : xs) v += 3;
  for (std::size_t i = 0; i < ws.size(); ++i) ws[i] -= w_zeros[i / 18];
  // Pads hold the zero point, i.e. zero after the shift: the reference pads with zeros.
  Shape y_shape;
  const std::vector<double> expected =
      direct_conv(xs, x.shape(), ws, w.shape(), nullptr, {2, {2, 1}, {1, 1}, {1, 1}, {1, 0}}, y_shape);
  const OpCall conv{"ConvInteger", 13,
                    attrs({{"group", std::int64_t{2}}, {"strides", Ints{2, 1}}, {"pads", Ints{1, 1, 1, 0}}})};
  check_all_close(conv.run_one({x, w, x_zero, w_zero}), y_shape, expected, 0, 0);
  CHECK(thrown_code([&] {
          conv.run({x.cast(DType::Float32), w, x_zero, w_zero});
        }) == ErrorCode::OperatorDtypeUnsupported);
}

// ---- channels-last path (SDK 0.5: the readers take channels-last, so Conv computes NHWC) ------

namespace {

// Conv on `x` (made channels-last when `channels_last_input`) with a channels-last output allowed,
// against the direct convolution; the result must be channels-last where the oneDNN path ran.
void check_channels_last_conv(const Shape& x_shape, const Shape& w_shape, const ConvSpec& spec, Attributes attrs,
                              std::uint32_t seed, int threads, bool channels_last_input, KernelState* state = nullptr) {
  const Tensor x_plain = random_tensor(x_shape, seed);
  const Tensor x = channels_last_input ? x_plain.channels_last() : x_plain;
  const Tensor w = random_tensor(w_shape, seed + 1);
  const Tensor b = random_tensor({w_shape[0]}, seed + 2);
  const std::vector<double> bias = b.to_doubles();
  Shape y_shape;
  const std::vector<double> expected =
      direct_conv(x_plain.to_doubles(), x_shape, w.to_doubles(), w_shape, &bias, spec, y_shape);
  OpCall conv{"Conv", 13, std::move(attrs)};
  conv.threads = threads;
  conv.channels_last_outputs = true;
  conv.state = state;
  conv.constant_inputs = {false, state != nullptr, false};
  const Tensor y = conv.run_one({x, w, b});
  check_all_close(y, y_shape, expected, 1e-4, 1e-5);
#if defined(ASC_TEST_HAVE_ONEDNN)
  CHECK(y.is_channels_last());
#endif
}

}  // namespace

TEST_CASE("Conv channels-last: ResNet's layer kinds, whole images and bands of rows per thread") {
  for (int threads : {1, 2, 3}) {
    for (bool channels_last_input : {false, true}) {
      CAPTURE(threads);
      CAPTURE(channels_last_input);
      // 7x7 stride 2 stem on 3 channels; batch 1 is cut into bands of rows, batch 3 into images.
      for (std::int64_t batch : {1, 3})
        check_channels_last_conv({batch, 3, 23, 20}, {8, 3, 7, 7}, {1, {2, 2}, {1, 1}, {3, 3}, {3, 3}},
                                 attrs({{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}}), 100, threads,
                                 channels_last_input);
      // 3x3 with padding; 1x1; 1x1 stride 2 on an even size (its last input row and column unread).
      check_channels_last_conv({1, 16, 9, 9}, {16, 16, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
                               attrs({{"pads", Ints{1, 1, 1, 1}}}), 110, threads, channels_last_input);
      check_channels_last_conv({2, 32, 6, 6}, {24, 32, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, attrs({}), 120,
                               threads, channels_last_input);
      for (std::int64_t batch : {1, 4})
        check_channels_last_conv({batch, 16, 8, 8}, {32, 16, 1, 1}, {1, {2, 2}, {1, 1}, {0, 0}, {0, 0}},
                                 attrs({{"strides", Ints{2, 2}}}), 130, threads, channels_last_input);
    }
  }
  // An image's output over 1 MB (64 x 66 x 66 floats: 1.1 MB) is cut into bands of rows on one
  // thread, and at a batch of as many images as threads, so that each piece stays in L2 for its
  // epilogue.
  for (const auto [batch, threads] : {std::pair<std::int64_t, int>{1, 1}, {2, 2}})
    check_channels_last_conv({batch, 4, 66, 66}, {64, 4, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, attrs({}), 135,
                             threads, true);
}

TEST_CASE("Conv channels-last: 1x1 layers (the AVX-512 pointwise kernel where the CPU has it)") {
  // conv/pointwise_conv.hpp: tiles of 6 (stride 1) or 7 pixels x 64 channels. Output channels
  // that leave a partial panel (72, 100: masked vectors) or fewer than one vector (5); pixel counts
  // that leave a partial tile (5x5, 3x11); stride 2 on odd sizes, where a tile stops at each output
  // row; more output channels than pixels (the panels shared out between threads, and an epilogue
  // range per pixel); 128+ input channels at 56x56 and 14x14, as ResNet's, and 200 (not a
  // multiple of the 16 steps between prefetches); and a layer the kernel leaves to oneDNN.
  struct Case {
    Shape x_shape, w_shape;
    std::int64_t stride;
  };
  const Case cases[] = {
      {{1, 16, 5, 5}, {72, 16, 1, 1}, 1},   {{2, 24, 3, 11}, {100, 24, 1, 1}, 1}, {{1, 8, 4, 4}, {5, 8, 1, 1}, 1},
      {{1, 32, 9, 7}, {40, 32, 1, 1}, 2},   {{3, 20, 7, 7}, {130, 20, 1, 1}, 2},  {{1, 160, 7, 7}, {256, 160, 1, 1}, 1},
      {{1, 128, 56, 56}, {24, 128, 1, 1}, 1}, {{1, 256, 14, 14}, {64, 256, 1, 1}, 1},
      {{2, 200, 6, 6}, {72, 200, 1, 1}, 1},
      // oneDNN's (32 channels in, over 28x28): each band's input and output have equal
      // descriptors, two memory objects all the same (onednn_thread_memory).
      {{2, 32, 30, 30}, {32, 32, 1, 1}, 1},
  };
  std::uint32_t seed = 140;
  for (const Case& c : cases)
    for (int threads : {1, 2, 3}) {
      CAPTURE(c.x_shape);
      CAPTURE(c.w_shape);
      CAPTURE(threads);
      const Attributes attributes = c.stride == 1 ? attrs({}) : attrs({{"strides", Ints{c.stride, c.stride}}});
      check_channels_last_conv(c.x_shape, c.w_shape, {1, {c.stride, c.stride}, {1, 1}, {0, 0}, {0, 0}}, attributes,
                               seed, threads, true);
      seed += 3;
    }
}

TEST_CASE("Conv channels-last: asymmetric pads, dilation, groups and depthwise") {
  check_channels_last_conv({1, 8, 11, 10}, {8, 8, 3, 3}, {1, {1, 2}, {2, 1}, {2, 0}, {1, 2}},
                           attrs({{"strides", Ints{1, 2}}, {"dilations", Ints{2, 1}}, {"pads", Ints{2, 0, 1, 2}}}),
                           140, 2, true);
  check_channels_last_conv({2, 8, 7, 7}, {12, 4, 3, 3}, {2, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
                           attrs({{"group", std::int64_t{2}}, {"pads", Ints{1, 1, 1, 1}}}), 150, 2, true);
  check_channels_last_conv({1, 16, 10, 10}, {16, 1, 3, 3}, {16, {2, 2}, {1, 1}, {1, 1}, {1, 1}},
                           attrs({{"group", std::int64_t{16}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}),
                           160, 2, true);
}

TEST_CASE("Conv channels-last: deep layers at batch 1 cut along the output channels") {
  // M * KH * KW > H * W and 5 output rows, which 2 or 3 threads cannot share evenly: each thread
  // computes a block of output channels (multiples of 16; 40 channels on 3 threads are 16, 16
  // and 8) into a buffer of its own, copied into place.
  for (int threads : {2, 3}) {
    CAPTURE(threads);
    check_channels_last_conv({1, 24, 5, 5}, {48, 24, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
                             attrs({{"pads", Ints{1, 1, 1, 1}}}), 180, threads, true);
    check_channels_last_conv({1, 64, 5, 5}, {40, 64, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, attrs({}), 190,
                             threads, true);
    check_channels_last_conv({1, 32, 9, 9}, {64, 32, 3, 3}, {1, {2, 2}, {1, 1}, {1, 1}, {1, 1}},
                             attrs({{"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}), 200, threads, false);
  }
}

namespace {

// Like check_channels_last_conv, with an error bound fit for Winograd's algorithm: |y - exact| <=
// 2e-6 * (the sum of |x * w| over the window + |bias|). Its transforms add and subtract scaled
// inputs before the products, so its float32 error follows the magnitude of the terms, not of
// their sum, which cancels (measured: up to 9e-7 of that magnitude, the direct kernel 3e-7).
// The float64 references cover every 8th output channel (two in each block of 16 the kernel
// computes together) at every pixel: the whole layer takes minutes at the tests' -O0. They are
// computed once, then the kernel runs on 1, 2 and 3 threads.
void check_winograd_sized_conv(const Shape& x_shape, const Shape& w_shape, const ConvSpec& spec, Attributes attrs,
                               std::uint32_t seed) {
  const Tensor x = random_tensor(x_shape, seed);
  const Tensor w = random_tensor(w_shape, seed + 1);
  const Tensor b = random_tensor({w_shape[0]}, seed + 2);
  constexpr std::int64_t kEvery = 8;
  const std::int64_t per_channel = num_elements(w_shape) / w_shape[0];
  const std::vector<double> all_w = w.to_doubles(), all_b = b.to_doubles();
  std::vector<double> checked_w, checked_b;
  for (std::int64_t m = 0; m < w_shape[0]; m += kEvery) {
    checked_w.insert(checked_w.end(), all_w.begin() + m * per_channel, all_w.begin() + (m + 1) * per_channel);
    checked_b.push_back(all_b[static_cast<std::size_t>(m)]);
  }
  Shape checked_w_shape = w_shape;
  checked_w_shape[0] = static_cast<std::int64_t>(checked_b.size());
  const auto absolute = [](std::vector<double> values) {
    for (double& value : values) value = std::abs(value);
    return values;
  };
  const std::vector<double> abs_b = absolute(checked_b);
  Shape checked_shape;
  const std::vector<double> expected =
      direct_conv(x.to_doubles(), x_shape, checked_w, checked_w_shape, &checked_b, spec, checked_shape);
  const std::vector<double> magnitude = direct_conv(absolute(x.to_doubles()), x_shape, absolute(checked_w),
                                                    checked_w_shape, &abs_b, spec, checked_shape);
  const std::int64_t pixels = checked_shape[2] * checked_shape[3];
  OpCall conv{"Conv", 13, std::move(attrs)};
  conv.channels_last_outputs = true;
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    conv.threads = threads;
    const Tensor y = conv.run_one({x.channels_last(), w, b});
    REQUIRE(y.shape() == Shape{x_shape[0], w_shape[0], checked_shape[2], checked_shape[3]});
#if defined(ASC_TEST_HAVE_ONEDNN)
    CHECK(y.is_channels_last());
#endif
    const std::vector<double> values = y.to_doubles();
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const auto checked_channel = static_cast<std::int64_t>(i) / pixels;  // n * checked channels + j
      const std::int64_t n = checked_channel / checked_shape[1], j = checked_channel % checked_shape[1];
      const std::int64_t pixel = static_cast<std::int64_t>(i) % pixels;
      const double value = values[static_cast<std::size_t>((n * w_shape[0] + j * kEvery) * pixels + pixel)];
      if (!(std::abs(value - expected[i]) <= 2e-6 * magnitude[i]) && ++mismatches <= 5)
        FAIL_CHECK("image " << n << ", channel " << j * kEvery << ", pixel " << pixel << ": " << value << " vs "
                            << expected[i] << " (terms' magnitude " << magnitude[i] << ")");
    }
    CHECK(mismatches == 0);
  }
}

}  // namespace

TEST_CASE("Conv channels-last: 3x3 stride-1 layers of 64 to 128 channels (Winograd on AVX-512 machines)") {
  // At least 784 output pixels an image: oneDNN's Winograd kernels where the machine has them
  // (checked with DNNL_VERBOSE=1: jit_fp32_wino_2x3 and jit_wino_4x3 both run here), computing
  // in nChw16c between two reorders; elsewhere the direct kernel.
  // The smallest such layers (64 channels, 28x28 outputs), each checked on 1-3 threads.
  const Attributes same = attrs({{"pads", Ints{1, 1, 1, 1}}});
  check_winograd_sized_conv({1, 64, 28, 28}, {64, 64, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, same, 240);
  // 64 channels in, 96 out.
  check_winograd_sized_conv({1, 64, 28, 28}, {96, 64, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, same, 250);
  // No padding; padding on the top and left only.
  check_winograd_sized_conv({1, 64, 30, 30}, {64, 64, 3, 3}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, attrs({}), 260);
  check_winograd_sized_conv({1, 64, 29, 29}, {64, 64, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {0, 0}},
                            attrs({{"pads", Ints{1, 1, 0, 0}}}), 270);
}

TEST_CASE("Conv channels-last: the outputs do not depend on the thread count or the batch") {
  // Each layer kind, Winograd's included, computes every output with the same operations however
  // its work is shared out: 1 to 4 threads, and an image alone or inside a batch of 3, give the
  // same bits.
  struct Case {
    Shape x_shape, w_shape;
    Attributes attributes;
  };
  const Attributes same = attrs({{"pads", Ints{1, 1, 1, 1}}});
  const Case cases[] = {
      {{3, 64, 28, 28}, {64, 64, 3, 3}, same},                                        // Winograd
      {{3, 32, 28, 28}, {32, 32, 3, 3}, same},                                        // direct, bands
      {{3, 64, 5, 5}, {48, 64, 3, 3}, same},                                          // blocks of channels
      {{3, 16, 12, 12}, {24, 16, 1, 1}, attrs({})},                                   // 1x1
      {{3, 128, 7, 7}, {256, 128, 1, 1}, attrs({})},                                  // 1x1, panels shared out
      {{3, 2056, 9, 8}, {72, 2056, 1, 1}, attrs({})},  // 1x1, weights over 1 MB: a group of panels at a time
      {{3, 8, 23, 20}, {16, 8, 7, 7}, attrs({{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}})},  // stem
  };
  std::uint32_t seed = 280;
  for (const Case& c : cases) {
    CAPTURE(c.x_shape);
    const Tensor x_plain = random_tensor(c.x_shape, ++seed);
    const Tensor x = x_plain.channels_last();
    const Tensor w = random_tensor(c.w_shape, ++seed);
    const Tensor b = random_tensor({c.w_shape[0]}, ++seed);
    Shape one_image = c.x_shape;
    one_image[0] = 1;
    const float* x_data = x_plain.data<float>();
    const Tensor first_image =
        floats(one_image, std::vector<float>(x_data, x_data + x_plain.numel() / c.x_shape[0]));
    std::vector<double> reference;
    for (int threads : {1, 2, 3, 4}) {
      CAPTURE(threads);
      OpCall conv{"Conv", 13, c.attributes};
      conv.threads = threads;
      conv.channels_last_outputs = true;
      const std::vector<double> y = conv.run_one({x, w, b}).to_doubles();
      if (reference.empty()) reference = y;
      CHECK(y == reference);
      // The first image alone: its outputs are the batch's first image's.
      const std::vector<double> alone = conv.run_one({first_image.channels_last(), w, b}).to_doubles();
      REQUIRE(alone.size() * 3 == reference.size());
      CHECK(std::equal(alone.begin(), alone.end(), reference.begin()));
    }
  }
}

TEST_CASE("Conv channels-last: the output epilogue runs once on every element, on each thread's pieces") {
  // KernelContext::output_epilogue (SDK 0.6): y -> 2y + 1 on the ranges the kernel reports, each
  // element counted. Whole images (batch 4), bands of rows (batch 1, 9 rows), blocks of output
  // channels (batch 1, 5 rows: a range per pixel and block), bands of images larger than 1 MB
  // (batch 2), the 1x1 kernel's groups of panels.
  struct Case {
    Shape x_shape, w_shape;
    ConvSpec spec;
    Attributes attributes;
  };
  const Case cases[] = {
      {{4, 16, 9, 9}, {16, 16, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, attrs({{"pads", Ints{1, 1, 1, 1}}})},
      {{1, 16, 9, 9}, {16, 16, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, attrs({{"pads", Ints{1, 1, 1, 1}}})},
      {{1, 24, 5, 5}, {48, 24, 3, 3}, {1, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, attrs({{"pads", Ints{1, 1, 1, 1}}})},
      {{2, 4, 66, 66}, {64, 4, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, attrs({})},
      {{1, 160, 7, 7}, {200, 160, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, attrs({})},  // a range per pixel and panels
      // Weights over 1 MB and no more channels than pixels: one group of panels over all the
      // pixels, then the next.
      {{1, 2056, 9, 8}, {72, 2056, 1, 1}, {1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, attrs({})},
  };
  std::uint32_t seed = 210;
  for (const Case& c : cases)
    for (int threads : {1, 2, 3}) {
      CAPTURE(c.x_shape);
      CAPTURE(threads);
      const Tensor x = random_tensor(c.x_shape, ++seed);
      const Tensor w = random_tensor(c.w_shape, ++seed);
      const Tensor b = random_tensor({c.w_shape[0]}, ++seed);
      const std::vector<double> bias = b.to_doubles();
      Shape y_shape;
      std::vector<double> expected = direct_conv(x.to_doubles(), c.x_shape, w.to_doubles(), c.w_shape, &bias, c.spec, y_shape);
      for (double& value : expected) value = 2 * value + 1;
      std::vector<std::atomic<int>> visits(static_cast<std::size_t>(num_elements(y_shape)));
      OpCall conv{"Conv", 13, c.attributes};
      conv.threads = threads;
      conv.channels_last_outputs = true;
      conv.output_epilogue = [&visits](Tensor& y, std::int64_t begin, std::int64_t end) {
        float* data = y.data<float>();
        for (std::int64_t i = begin; i < end; ++i) {
          data[i] = 2 * data[i] + 1;
          ++visits[static_cast<std::size_t>(i)];
        }
      };
      const Tensor y = conv.run_one({x.channels_last(), w, b});
#if defined(ASC_TEST_HAVE_ONEDNN)
      REQUIRE(conv.output_epilogue_done);
      // A float32 sum of `depth` products of values in [-1, 1] is off by up to about depth * 1e-7.
      const std::int64_t depth = c.w_shape[1] * c.w_shape[2] * c.w_shape[3];
      check_all_close(y, y_shape, expected, 1e-4, std::max(1e-5, 1e-7 * static_cast<double>(depth)));
      CHECK(std::count_if(visits.begin(), visits.end(), [](const std::atomic<int>& count) { return count != 1; }) == 0);
#else
      CHECK_FALSE(conv.output_epilogue_done);
#endif
    }
  // The im2col path (contiguous output) leaves the epilogue to the caller.
  OpCall conv{"Conv", 13, attrs({})};
  bool called = false;
  conv.output_epilogue = [&called](Tensor&, std::int64_t, std::int64_t) { called = true; };
  conv.run_one({random_tensor({1, 4, 5, 5}, 230), random_tensor({4, 4, 1, 1}, 231)});
  CHECK_FALSE(conv.output_epilogue_done);
  CHECK_FALSE(called);
}

TEST_CASE("Conv channels-last: OutputEpilogueSteps folded into the kernels' stores") {
  // KernelContext::output_epilogue_steps (SDK 0.8): y -> activation(y + addend), then `then`
  // (y -> 2y + 1, each element counted). The AVX-512 1x1 kernel does the steps as it stores and
  // calls only `then`; an addend laid out otherwise than the output (NCHW here), and oneDNN's
  // 3x3, call output_epilogue, which does the same work. With the addend given up
  // (addend_reusable), the 1x1 kernel computes in place over it, and oneDNN too where its pieces
  // are whole output rows (a sum post-op, then the activation and `then`). Against a float64
  // reference.
  using Activation = OutputEpilogueSteps::Activation;
  struct Case {
    Shape x_shape, w_shape;
    std::int64_t stride;
    bool onednn_rows;  // oneDNN's pieces are bands of whole rows (2 threads)
    bool pointwise_only_folding = false;  // the 1x1 kernel only where it folds the addend or rounding
  };
  const Case cases[] = {
      {{2, 128, 6, 6}, {72, 128, 1, 1}, 1, false},   // tiles over all panels, a partial panel
      {{1, 160, 7, 7}, {200, 160, 1, 1}, 1, false},  // panels shared out: a range per pixel
      {{1, 20, 7, 7}, {130, 20, 1, 1}, 2, false},    // strided: tiles stop at each row's end
      {{1, 16, 6, 6}, {24, 16, 3, 3}, 1, true},      // 3x3: oneDNN in bands of rows
      {{1, 16, 5, 5}, {24, 16, 3, 3}, 1, false},     // 5 rows on 2 threads: blocks of channels
      {{1, 64, 30, 30}, {80, 64, 1, 1}, 1, false, true},  // 64 channels in, over 28x28 pixels
  };
  const bool has_avx512 = __builtin_cpu_supports("avx512f") != 0;
  std::uint32_t seed = 240;
  for (const Case& c : cases)
    for (const Activation activation : {Activation::None, Activation::Relu, Activation::Clip})
      for (const auto& [layout, reuse, rounding] : {std::tuple{true, false, false}, {false, false, false},
                                                    {true, true, false}, {true, false, true}, {true, true, true}}) {
        const bool addend_channels_last = layout, reusable = reuse, round = rounding;  // lambdas capture these
        CAPTURE(c.w_shape);
        CAPTURE(round);
        CAPTURE(static_cast<int>(activation));
        CAPTURE(addend_channels_last);
        CAPTURE(reusable);
        const std::int64_t pad = c.w_shape[2] / 2;
        const ConvSpec spec{1, {c.stride, c.stride}, {1, 1}, {pad, pad}, {pad, pad}};
        const Attributes attributes =
            attrs({{"strides", Ints{c.stride, c.stride}}, {"pads", Ints{pad, pad, pad, pad}}});
        const Tensor x = random_tensor(c.x_shape, ++seed);
        const Tensor w = random_tensor(c.w_shape, ++seed);
        const Tensor b = random_tensor({c.w_shape[0]}, ++seed);
        const std::vector<double> bias = b.to_doubles();
        Shape y_shape;
        std::vector<double> expected =
            direct_conv(x.to_doubles(), c.x_shape, w.to_doubles(), c.w_shape, &bias, spec, y_shape);
        const Tensor addend_plain = random_tensor(y_shape, ++seed);
        const Tensor addend = addend_channels_last ? addend_plain.channels_last() : addend_plain;
        const std::byte* addend_memory = addend.view().raw();
        const std::vector<double> addend_values = addend_plain.to_doubles();
        constexpr float kLow = -0.5f, kHigh = 0.3f;
        const auto activate = [activation](double v) {
          if (activation == Activation::Relu) return v < 0 ? 0.0 : v;
          if (activation == Activation::Clip) return std::min(std::max(v, double{kLow}), double{kHigh});
          return v;
        };
        const auto to_f16 = [round](float v) { return round ? f16_bits_to_float(float_to_f16_bits(v)) : v; };
        for (std::size_t i = 0; i < expected.size(); ++i)
          expected[i] = 2 * to_f16(static_cast<float>(activate(expected[i] + addend_values[i]))) + 1;

        std::vector<std::atomic<int>> visits(static_cast<std::size_t>(num_elements(y_shape)));
        std::atomic<int> function_calls{0};
        const OutputEpilogue then = [&visits](Tensor& y, std::int64_t begin, std::int64_t end) {
          float* data = y.data<float>();
          for (std::int64_t i = begin; i < end; ++i) {
            data[i] = 2 * data[i] + 1;
            ++visits[static_cast<std::size_t>(i)];
          }
        };
        OutputEpilogueSteps steps;
        steps.addend = &addend;
        steps.addend_reusable = reusable;
        steps.activation = activation;
        steps.low = kLow;
        steps.high = kHigh;
        steps.round_to_f16 = round;
        steps.then = then;
        OpCall conv{"Conv", 13, attributes};
        conv.threads = 2;
        conv.channels_last_outputs = true;
        // The whole epilogue element by element, for a kernel that does not fold the steps in: the
        // addend read at the output element's logical position, whatever its layout.
        conv.output_epilogue = [&](Tensor& y, std::int64_t begin, std::int64_t end) {
          ++function_calls;
          float* data = y.data<float>();
          const Shape& strides = y.strides();
          for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t n = i / strides[0], h = i % strides[0] / strides[2],
                               col = i % strides[2] / strides[3], ch = i % strides[3];
            const auto logical = static_cast<std::size_t>(((n * y_shape[1] + ch) * y_shape[2] + h) * y_shape[3] + col);
            const float sum = data[i] + static_cast<float>(addend_values[logical]);
            data[i] = to_f16(activation == Activation::Relu   ? (sum < 0 ? 0.0f : sum)
                             : activation == Activation::Clip ? std::min(std::max(sum, kLow), kHigh)
                                                              : sum);
          }
          then(y, begin, end);
        };
        conv.output_epilogue_steps = steps;
        const Tensor y = conv.run_one({x.channels_last(), w, b});
#if defined(ASC_TEST_HAVE_ONEDNN)
        REQUIRE(conv.output_epilogue_done);
        REQUIRE(y.is_channels_last());
        // Rounded: one fp16 step (doubled by 2y + 1) where the float64 sum rounds the other way.
        check_all_close(y, y_shape, expected, round ? 2e-3 : 1e-4, round ? 4e-3 : 1e-5);
        CHECK(std::count_if(visits.begin(), visits.end(), [](const std::atomic<int>& n) { return n != 1; }) == 0);
        const bool pointwise = has_avx512 && c.w_shape[2] == 1 && (!c.pointwise_only_folding || addend_channels_last);
        const bool in_place = reusable && (pointwise || c.onednn_rows);
        CHECK((function_calls == 0) == ((pointwise && addend_channels_last) || in_place));
        CHECK((y.view().raw() == addend_memory) == in_place);
        // The steps folded in change no bit: the same call with the function alone (which runs
        // oneDNN instead where the 1x1 kernel is chosen only for folding: other sums' rounding).
        if (!reusable && !c.pointwise_only_folding) {
          OpCall plain = conv;
          plain.output_epilogue_steps.reset();
          std::fill(visits.begin(), visits.end(), 0);
          CHECK(plain.run_one({x.channels_last(), w, b}).to_doubles() == y.to_doubles());
        }
#else
        CHECK_FALSE(conv.output_epilogue_done);
#endif
      }
}

TEST_CASE("Conv channels-last: kept state serves later calls and another batch size") {
  KernelState state;
  const Shape w_shape{8, 8, 3, 3};
  const ConvSpec spec{1, {1, 1}, {1, 1}, {1, 1}, {1, 1}};
  const Tensor w = random_tensor(w_shape, 171);  // the plan's constant: one tensor for every call
  const Tensor b = random_tensor({8}, 172);
  const std::vector<double> bias = b.to_doubles();
  OpCall conv{"Conv", 13, attrs({{"pads", Ints{1, 1, 1, 1}}})};
  conv.threads = 2;
  conv.channels_last_outputs = true;
  conv.state = &state;
  conv.constant_inputs = {false, true, false};
  std::uint32_t seed = 173;
  for (std::int64_t batch : {1, 1, 4, 1}) {
    CAPTURE(batch);
    const Shape x_shape{batch, 8, 6, 6};
    const Tensor x = random_tensor(x_shape, ++seed);
    Shape y_shape;
    const std::vector<double> expected = direct_conv(x.to_doubles(), x_shape, w.to_doubles(), w_shape, &bias, spec, y_shape);
    check_all_close(conv.run_one({x.channels_last(), w, b}), y_shape, expected, 1e-4, 1e-5);
  }
  // A deep layer: blocks of output channels at batch 1 (a packed block of weights each), whole
  // images at batch 4 (all the weights packed once more), from the same kept state.
  KernelState deep_state;
  const Shape deep_w_shape{48, 16, 3, 3};
  const Tensor deep_w = random_tensor(deep_w_shape, 181);
  const Tensor deep_b = random_tensor({48}, 182);
  const std::vector<double> deep_bias = deep_b.to_doubles();
  conv.state = &deep_state;
  for (std::int64_t batch : {1, 4, 1}) {
    CAPTURE(batch);
    const Shape x_shape{batch, 16, 5, 5};
    const Tensor x = random_tensor(x_shape, ++seed);
    Shape y_shape;
    const std::vector<double> expected =
        direct_conv(x.to_doubles(), x_shape, deep_w.to_doubles(), deep_w_shape, &deep_bias, spec, y_shape);
    check_all_close(conv.run_one({x.channels_last(), deep_w, deep_b}), y_shape, expected, 1e-4, 1e-5);
  }
}

}  // namespace asc::test
