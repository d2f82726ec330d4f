// Pooling operators on hand-computed cases.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

using Ints = std::vector<std::int64_t>;

Tensor counting(const Shape& shape, float first = 1.0f) {
  std::vector<float> values(static_cast<std::size_t>(num_elements(shape)));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = first + static_cast<float>(i);
  return Tensor::from_vector<float>(shape, values);
}

}  // namespace

TEST_CASE("MaxPool: ceil_mode keeps the partial window") {
  const Tensor x = counting({1, 1, 4, 4});
  const OpCall floor_pool{"MaxPool", 12, attrs({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}})};
  check_all_close(floor_pool.run_one({x}), {1, 1, 1, 1}, {11});
  const OpCall ceil_pool{
      "MaxPool", 12,
      attrs({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", std::int64_t{1}}})};
  check_all_close(ceil_pool.run_one({x}), {1, 1, 2, 2}, {11, 12, 15, 16});
}

TEST_CASE("MaxPool: Indices in row- and column-major order, offset per plane") {
  // Channel 0:      channel 1 = channel 0 + 10
  //   1 5 2
  //   7 3 9
  //   4 8 6
  std::vector<float> values{1, 5, 2, 7, 3, 9, 4, 8, 6};
  for (int i = 0; i < 9; ++i) values.push_back(values[static_cast<std::size_t>(i)] + 10);
  const Tensor x = Tensor::from_vector<float>({1, 2, 3, 3}, values);
  OpCall pool{"MaxPool", 12, attrs({{"kernel_shape", Ints{2, 2}}}), 2};
  std::vector<Tensor> out = pool.run({x});
  check_all_close(out[0], {1, 2, 2, 2}, {7, 9, 8, 9, 17, 19, 18, 19});
  CHECK(out[1].dtype() == DType::Int64);
  CHECK(out[1].to_int64s() == std::vector<std::int64_t>{3, 5, 7, 5, 12, 14, 16, 14});
  // storage_order 1: the spatial index is w * H + h.
  pool.attrs.set("storage_order", std::int64_t{1});
  out = pool.run({x});
  CHECK(out[1].to_int64s() == std::vector<std::int64_t>{1, 7, 5, 7, 10, 16, 14, 16});
}

TEST_CASE("MaxPool: threads share the planes; values and Indices as with one thread") {
  // Plane p of a 2x2/stride-2 pool over counting values: each window's maximum is its
  // bottom-right element, at input offset p*16 + (2*oh + 1)*4 + 2*ow + 1.
  const Tensor x = counting({2, 3, 4, 4}, 0.0f);
  std::vector<double> values;
  std::vector<std::int64_t> indices;
  for (std::int64_t plane = 0; plane < 6; ++plane)
    for (std::int64_t oh = 0; oh < 2; ++oh)
      for (std::int64_t ow = 0; ow < 2; ++ow) {
        const std::int64_t offset = plane * 16 + (2 * oh + 1) * 4 + 2 * ow + 1;
        values.push_back(static_cast<double>(offset));
        indices.push_back(offset);
      }
  for (int threads : {2, 3, 16}) {
    CAPTURE(threads);
    OpCall pool{"MaxPool", 12, attrs({{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}}), 2};
    pool.threads = threads;
    const std::vector<Tensor> out = pool.run({x});
    check_all_close(out[0], {2, 3, 2, 2}, values);
    CHECK(out[1].to_int64s() == indices);
    pool.outputs = 1;
    check_all_close(pool.run_one({x}), {2, 3, 2, 2}, values);
  }
}

TEST_CASE("MaxPool: a NaN in the first tap is the result, a later NaN is skipped (as numpy's argmax picks)") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Windows of 2: [NaN, 1] -> NaN, [2, NaN] -> 2, [3, 4] -> 4.
  const Tensor x = Tensor::from_vector<float>({1, 1, 6}, {nan, 1, 2, nan, 3, 4});
  for (std::size_t outputs : {1, 2}) {
    CAPTURE(outputs);
    const OpCall pool{"MaxPool", 12, attrs({{"kernel_shape", Ints{2}}, {"strides", Ints{2}}}), outputs};
    const std::vector<double> y = pool.run({x})[0].to_doubles();
    REQUIRE(y.size() == 3);
    CHECK(std::isnan(y[0]));
    CHECK(y[1] == 2.0f);
    CHECK(y[2] == 4.0f);
  }
}

TEST_CASE("MaxPool: dilations, auto_pad and 8-bit inputs") {
  const OpCall dilated{"MaxPool", 12, attrs({{"kernel_shape", Ints{2, 2}}, {"dilations", Ints{2, 2}}})};
  check_all_close(dilated.run_one({counting({1, 1, 4, 4})}), {1, 1, 2, 2}, {11, 12, 15, 16});

  const Tensor row = Tensor::from_vector<float>({1, 1, 5}, {3, 1, 4, 1, 5});
  const OpCall upper{"MaxPool", 12,
                     attrs({{"kernel_shape", Ints{2}}, {"auto_pad", std::string("SAME_UPPER")}})};
  check_all_close(upper.run_one({row}), {1, 1, 5}, {3, 4, 4, 5, 5});
  const OpCall lower{"MaxPool", 12,
                     attrs({{"kernel_shape", Ints{2}}, {"auto_pad", std::string("SAME_LOWER")}})};
  check_all_close(lower.run_one({row}), {1, 1, 5}, {3, 3, 4, 4, 5});

  const Tensor bytes = Tensor::from_vector<std::uint8_t>({1, 1, 4}, {200, 10, 255, 3});
  const OpCall pair{"MaxPool", 12, attrs({{"kernel_shape", Ints{2}}, {"strides", Ints{2}}})};
  const Tensor y = pair.run_one({bytes});
  CHECK(y.dtype() == DType::UInt8);
  CHECK(y.to_int64s() == std::vector<std::int64_t>{200, 255});
  const Tensor halves = pair.run_one({row.cast(DType::Float16)});
  CHECK(halves.dtype() == DType::Float16);
  check_all_close(halves, {1, 1, 2}, {3, 4});
}

TEST_CASE("MaxPool and GlobalAveragePool take channels-last input as it is") {
  // Channel 0:      channel 1 = 10 * channel 0, channel 2 = -channel 0
  //   1 5 2
  //   7 3 9
  //   4 8 6
  const std::vector<float> plane{1, 5, 2, 7, 3, 9, 4, 8, 6};
  std::vector<float> values = plane;
  for (float v : plane) values.push_back(10 * v);
  for (float v : plane) values.push_back(-v);
  const Tensor x = Tensor::from_vector<float>({1, 3, 3, 3}, values).channels_last();
  REQUIRE_FALSE(x.is_contiguous());
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    // 2x2 windows, stride 1, a pad of 1 at the bottom and right (padding never wins).
    OpCall max_pool{"MaxPool", 12, attrs({{"kernel_shape", Ints{2, 2}}, {"pads", Ints{0, 0, 1, 1}}})};
    max_pool.threads = threads;
    const Tensor y = max_pool.run_one({x});
    CHECK(y.is_channels_last());
    check_all_close(y, {1, 3, 3, 3},
                    {7, 9, 9, 8, 9, 9, 8, 8, 6,  //
                     70, 90, 90, 80, 90, 90, 80, 80, 60,  //
                     -1, -2, -2, -3, -3, -6, -4, -6, -6});
  }
  const Tensor mean = OpCall{"GlobalAveragePool", 12}.run_one({x});
  check_all_close(mean, {1, 3, 1, 1}, {5, 50, -5});
}

TEST_CASE("MaxPool channels-last: a NaN first tap is kept, a later NaN does not win") {
  // 80 channels (a block of 64 held in registers, then 16 more), 1 x 3 pixels, windows of 1 x 2,
  // stride 1. Even channels [NaN, 1, 2] give [NaN, 2]; odd channels [1, NaN, 3] give [1, NaN].
  const float nan = std::numeric_limits<float>::quiet_NaN();
  constexpr std::int64_t kChannels = 80;
  std::vector<float> values;
  for (std::int64_t c = 0; c < kChannels; ++c)
    for (float v : c % 2 == 0 ? std::vector<float>{nan, 1, 2} : std::vector<float>{1, nan, 3}) values.push_back(v);
  const Tensor x = Tensor::from_vector<float>({1, kChannels, 1, 3}, values).channels_last();
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    OpCall max_pool{"MaxPool", 12, attrs({{"kernel_shape", Ints{1, 2}}})};
    max_pool.threads = threads;
    const Tensor y = max_pool.run_one({x});
    REQUIRE(y.shape() == Shape{1, kChannels, 1, 2});
    const std::vector<double> out = y.to_doubles();
    for (std::int64_t c = 0; c < kChannels; ++c) {
      CAPTURE(c);
      if (c % 2 == 0) {
        CHECK(std::isnan(out[static_cast<std::size_t>(2 * c)]));
        CHECK(out[static_cast<std::size_t>(2 * c + 1)] == 2);
      } else {
        CHECK(out[static_cast<std::size_t>(2 * c)] == 1);
        CHECK(std::isnan(out[static_cast<std::size_t>(2 * c + 1)]));
      }
    }
  }
}

TEST_CASE("MaxPool channels-last: ResNet's 3x3 stride-2 window over 72 channels, as the NCHW path computes it") {
  // 64 channels in registers and 8 more; the padded first row and column; odd and even sizes.
  for (const std::int64_t size : {9, 10}) {
    CAPTURE(size);
    const Tensor x = random_tensor({2, 72, size, size}, static_cast<std::uint32_t>(300 + size));
    const Attributes attributes =
        attrs({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}});
    const std::vector<double> nchw = OpCall{"MaxPool", 12, attributes}.run_one({x}).to_doubles();
    OpCall channels_last{"MaxPool", 12, attributes};
    channels_last.threads = 2;
    const Tensor y = channels_last.run_one({x.channels_last()});
    CHECK(y.is_channels_last());
    CHECK(y.to_doubles() == nchw);
  }
}

TEST_CASE("GlobalAveragePool and GlobalMaxPool channels-last: images and blocks of channels on threads, as NCHW") {
  // 600 channels: two blocks of 256 and a rest, in each of 3 images.
  const Tensor x = random_tensor({3, 600, 5, 7}, 320);
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"}) {
    CAPTURE(op);
    const std::vector<double> nchw = OpCall{op, 12}.run_one({x}).to_doubles();
    OpCall channels_last{op, 12};
    channels_last.threads = 2;
    CHECK(channels_last.run_one({x.channels_last()}).to_doubles() == nchw);
  }
}

TEST_CASE("AveragePool: count_include_pad decides the divisor") {
  const Tensor x = counting({1, 1, 3, 3});
  Attributes a = attrs({{"kernel_shape", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}});
  check_all_close(OpCall{"AveragePool", 11, a}.run_one({x}), {1, 1, 4, 4},
                  {1, 1.5, 2.5, 3, 2.5, 3, 4, 4.5, 5.5, 6, 7, 7.5, 7, 7.5, 8.5, 9});
  a.set("count_include_pad", std::int64_t{1});
  check_all_close(OpCall{"AveragePool", 11, a}.run_one({x}), {1, 1, 4, 4},
                  {0.25, 0.75, 1.25, 0.75, 1.25, 3, 4, 2.25, 2.75, 6, 7, 3.75, 1.75, 3.75, 4.25, 2.25});
}

TEST_CASE("AveragePool: ceil_mode windows past the input count only real elements") {
  for (std::int64_t include_pad : {0, 1}) {
    const OpCall pool{"AveragePool", 11,
                      attrs({{"kernel_shape", Ints{3, 3}},
                             {"strides", Ints{2, 2}},
                             {"ceil_mode", std::int64_t{1}},
                             {"count_include_pad", include_pad}})};
    check_all_close(pool.run_one({counting({1, 1, 4, 4})}), {1, 1, 2, 2}, {6, 7.5, 12, 13.5});
  }
}

TEST_CASE("LpPool and the global pools") {
  const Tensor row = Tensor::from_vector<float>({1, 1, 4}, {3, -4, 0, 5});
  check_all_close(
      OpCall{"LpPool", 11, attrs({{"kernel_shape", Ints{2}}, {"strides", Ints{2}}})}.run_one({row}),
      {1, 1, 2}, {5, 5});
  check_all_close(
      OpCall{"LpPool", 11, attrs({{"kernel_shape", Ints{2}}, {"strides", Ints{2}}, {"p", std::int64_t{1}}})}
          .run_one({row}),
      {1, 1, 2}, {7, 5});

  const Tensor x = Tensor::from_vector<float>({1, 2, 2, 2}, {1, 2, 3, 4, -1, -8, 3, 2});
  check_all_close(OpCall{"GlobalAveragePool", 11, {}}.run_one({x}), {1, 2, 1, 1}, {2.5, -1});
  check_all_close(OpCall{"GlobalMaxPool", 11, {}}.run_one({x}), {1, 2, 1, 1}, {4, 3});
  check_all_close(OpCall{"GlobalLpPool", 11, {}}.run_one({x.reshaped({2, 2, 2})}), {2, 2, 1},
                  {std::sqrt(5.0), 5, std::sqrt(65.0), std::sqrt(13.0)});
  // Two images (the second twice the first), contiguous and channels-last: the same values.
  const Tensor batch = Tensor::from_vector<float>({2, 2, 2, 2}, {1, 2, 3, 4, -1, -8, 3, 2, 2, 4, 6, 8, -2, -16, 6, 4});
  for (const Tensor& input : {batch, batch.channels_last()}) {
    CAPTURE(input.is_contiguous());
    check_all_close(OpCall{"GlobalAveragePool", 11, {}}.run_one({input}), {2, 2, 1, 1}, {2.5, -1, 5, -2});
    check_all_close(OpCall{"GlobalMaxPool", 11, {}}.run_one({input}), {2, 2, 1, 1}, {4, 3, 8, 6});
    check_all_close(OpCall{"GlobalLpPool", 11, {}}.run_one({input}), {2, 2, 1, 1},
                    {std::sqrt(30.0), std::sqrt(78.0), std::sqrt(120.0), std::sqrt(312.0)});
  }
  const ValueInfo info{"x", DType::Float32, std::vector<Dim>{Dim::symbolic("n"), 8, 7, 7}};
  CHECK(*OpCall{"GlobalAveragePool", 11, {}}.infer({info}).at(0).shape ==
        std::vector<Dim>{Dim::symbolic("n"), 8, 1, 1});
}

TEST_CASE("MaxUnpool scatters at the indices") {
  const Tensor x = Tensor::from_vector<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor indices = Tensor::from_vector<std::int64_t>({1, 1, 2, 2}, {5, 7, 13, 15});
  const OpCall unpool{"MaxUnpool", 11, attrs({{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}})};
  check_all_close(unpool.run_one({x, indices}), {1, 1, 4, 4},
                  {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4});
  // With output_shape the indices address that shape (MaxPool's input).
  const Tensor shape = Tensor::from_vector<std::int64_t>({4}, {1, 1, 3, 3});
  const Tensor into_3x3 = Tensor::from_vector<std::int64_t>({1, 1, 2, 2}, {0, 2, 6, 8});
  check_all_close(unpool.run_one({x, into_3x3, shape}), {1, 1, 3, 3}, {1, 0, 2, 0, 0, 0, 3, 0, 4});
  CHECK(*unpool
             .infer({ValueInfo{"x", DType::Float32, std::vector<Dim>{Dim::symbolic("n"), 3, 2, 5}},
                     ValueInfo{"i", DType::Int64, std::vector<Dim>{Dim::symbolic("n"), 3, 2, 5}}})
             .at(0)
             .shape == std::vector<Dim>{Dim::symbolic("n"), 3, 4, 10});
  const Tensor outside = Tensor::from_vector<std::int64_t>({1, 1, 2, 2}, {0, 2, 6, 16});
  CHECK(thrown_code([&] { unpool.run({x, outside}); }) == ErrorCode::InvalidOperator);
}

TEST_CASE("Pools: shape inference, cost and invalid attributes") {
  const OpCall pool{
      "MaxPool", 12,
      attrs({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}), 2};
  const ValueInfo x{"x", DType::Float32, std::vector<Dim>{Dim::symbolic("batch"), 64, 112, 112}};
  const std::vector<ValueInfo> outs = pool.infer({x});
  CHECK(*outs[0].shape == std::vector<Dim>{Dim::symbolic("batch"), 64, 56, 56});
  CHECK(outs[1].dtype == DType::Int64);
  CHECK(*outs[1].shape == *outs[0].shape);

  const CostFacts facts = pool.cost({ValueInfo::from_shape("x", DType::Float32, {1, 64, 112, 112})},
                                    {ValueInfo::from_shape("y", DType::Float32, {1, 64, 56, 56})});
  CHECK(facts.unit == ComputeUnit::Vector);
  CHECK(facts.flops == doctest::Approx(64.0 * 56 * 56 * 9));
  CHECK(facts.bytes_read == 64 * 112 * 112 * 4);

  const Tensor t = counting({1, 1, 4, 4});
  auto error = [&](const char* op, Attributes attrs) {
    return thrown_code([&] { OpCall{op, 12, std::move(attrs)}.run({t}); });
  };
  CHECK(error("MaxPool", {}) == ErrorCode::InvalidOperator);  // kernel_shape is required
  CHECK(error("MaxPool", attrs({{"kernel_shape", Ints{2, 2}}, {"storage_order", std::int64_t{2}}})) ==
        ErrorCode::InvalidOperator);
  CHECK(error("MaxPool", attrs({{"kernel_shape", Ints{2, 2}}, {"pads", Ints{1, 1}}})) ==
        ErrorCode::InvalidOperator);
  CHECK(error("MaxPool", attrs({{"kernel_shape", Ints{5, 5}}})) == ErrorCode::InvalidOperator);
  CHECK(error("AveragePool", attrs({{"kernel_shape", Ints{2, 2}}, {"count_include_pad", std::int64_t{2}}})) ==
        ErrorCode::InvalidOperator);
  CHECK(error("AveragePool", attrs({{"kernel_shape", Ints{2, 2}}, {"ceil_mode", std::int64_t{3}}})) ==
        ErrorCode::InvalidOperator);
  // Inference refuses a kernel larger than a known input.
  const OpCall too_big{"MaxPool", 12, attrs({{"kernel_shape", Ints{5, 5}}})};
  CHECK(thrown_code([&] {
          too_big.infer({ValueInfo{"x", DType::Float32, std::vector<Dim>{1, 1, 4, 4}}});
        }) == ErrorCode::InvalidOperator);
}

}  // namespace asc::test
