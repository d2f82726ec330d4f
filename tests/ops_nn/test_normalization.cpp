// Normalisation operators against naive float64 references.
#include <doctest/doctest.h>

#include <cmath>

#include "op_testing.hpp"
#include "nn_reference.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

using Ints = std::vector<std::int64_t>;

// Mean and population variance of the elements of `x` (shape [N, C, S]) in channel c (every n)
// or, with `per_instance`, in plane (n, c).
struct Moments {
  double mean = 0, variance = 0;
};
Moments moments(const std::vector<double>& x, std::int64_t n_count, std::int64_t channels, std::int64_t plane,
                std::int64_t n_only, std::int64_t c) {
  double sum = 0, squares = 0, count = 0;
  for (std::int64_t n = 0; n < n_count; ++n) {
    if (n_only >= 0 && n != n_only) continue;
    for (std::int64_t i = 0; i < plane; ++i) {
      sum += x[static_cast<std::size_t>((n * channels + c) * plane + i)];
      ++count;
    }
  }
  const double mean = sum / count;
  for (std::int64_t n = 0; n < n_count; ++n) {
    if (n_only >= 0 && n != n_only) continue;
    for (std::int64_t i = 0; i < plane; ++i) {
      const double d = x[static_cast<std::size_t>((n * channels + c) * plane + i)] - mean;
      squares += d * d;
    }
  }
  return {mean, squares / count};
}

}  // namespace

TEST_CASE("BatchNormalization: inference mode at opsets 11 and 15") {
  const Tensor x = random_tensor({2, 3, 4, 5}, 1, -2, 2);
  const Tensor scale = random_tensor({3}, 2);
  const Tensor bias = random_tensor({3}, 3);
  const Tensor mean = random_tensor({3}, 4);
  const Tensor var = random_tensor({3}, 5, 0.1f, 2.0f);
  const std::vector<double> xs = x.to_doubles(), s = scale.to_doubles(), b = bias.to_doubles(),
                            m = mean.to_doubles(), v = var.to_doubles();
  std::vector<double> expected(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const std::size_t c = (i / 20) % 3;
    expected[i] = s[c] * (xs[i] - m[c]) / std::sqrt(v[c] + 1e-2) + b[c];
  }
  for (std::int64_t opset : {11, 15}) {
    const OpCall op{"BatchNormalization", opset, attrs({{"epsilon", 1e-2f}})};
    check_all_close(op.run_one({x, scale, bias, mean, var}), x.shape(), expected, 1e-5, 1e-5);
  }
  // Opset 15 allows float64 statistics with float32 data.
  const OpCall op15{"BatchNormalization", 15, attrs({{"epsilon", 1e-2f}})};
  check_all_close(op15.run_one({x, scale, bias, mean.cast(DType::Float64), var.cast(DType::Float64)}),
                  x.shape(), expected, 1e-5, 1e-5);
}

TEST_CASE("BatchNormalization: training_mode uses batch statistics and updates the running ones") {
  const Tensor x = random_tensor({2, 3, 2, 3}, 11, -2, 2);
  const Tensor scale = random_tensor({3}, 12);
  const Tensor bias = random_tensor({3}, 13);
  const Tensor mean = random_tensor({3}, 14);
  const Tensor var = random_tensor({3}, 15, 0.1f, 2.0f);
  const std::vector<double> xs = x.to_doubles(), s = scale.to_doubles(), b = bias.to_doubles(),
                            m = mean.to_doubles(), v = var.to_doubles();
  std::vector<double> expected(xs.size()), running_mean(3), running_var(3);
  for (std::int64_t c = 0; c < 3; ++c) {
    const Moments batch = moments(xs, 2, 3, 6, -1, c);
    running_mean[static_cast<std::size_t>(c)] = m[static_cast<std::size_t>(c)] * 0.8 + batch.mean * 0.2;
    running_var[static_cast<std::size_t>(c)] = v[static_cast<std::size_t>(c)] * 0.8 + batch.variance * 0.2;
    for (std::int64_t n = 0; n < 2; ++n)
      for (std::int64_t i = 0; i < 6; ++i) {
        const std::size_t at = static_cast<std::size_t>((n * 3 + c) * 6 + i);
        expected[at] =
            s[static_cast<std::size_t>(c)] * (xs[at] - batch.mean) / std::sqrt(batch.variance + 1e-5) +
            b[static_cast<std::size_t>(c)];
      }
  }
  const OpCall op{"BatchNormalization", 15, attrs({{"training_mode", std::int64_t{1}}, {"momentum", 0.8f}}),
                  3};
  const std::vector<Tensor> out = op.run({x, scale, bias, mean, var});
  check_all_close(out[0], x.shape(), expected, 1e-5, 1e-5);
  check_all_close(out[1], {3}, running_mean, 1e-5, 1e-6);
  check_all_close(out[2], {3}, running_var, 1e-5, 1e-6);
  const std::vector<ValueInfo> inferred = op.infer(
      {ValueInfo{"x", DType::Float32, std::vector<Dim>{Dim::symbolic("n"), 3, 2, 3}},
       ValueInfo::from_shape("s", DType::Float32, {3}), ValueInfo::from_shape("b", DType::Float32, {3}),
       ValueInfo::from_shape("m", DType::Float64, {3}), ValueInfo::from_shape("v", DType::Float64, {3})});
  CHECK(*inferred[0].shape == std::vector<Dim>{Dim::symbolic("n"), 3, 2, 3});
  CHECK(inferred[1].dtype == DType::Float64);
  CHECK(*inferred[1].shape == std::vector<Dim>{3});
}

TEST_CASE("BatchNormalization: refused forms") {
  const Tensor x = random_tensor({1, 2, 2, 2}, 1);
  const Tensor p = random_tensor({2}, 2, 0.5f, 1.0f);
  // Opset 9-13 training outputs are not computed.
  CHECK(thrown_code([&] {
          OpCall{"BatchNormalization", 13, {}, 5}.run({x, p, p, p, p});
        }) == ErrorCode::InvalidOperator);
  // running_mean without training_mode.
  CHECK(thrown_code([&] {
          OpCall{"BatchNormalization", 15, {}, 3}.run({x, p, p, p, p});
        }) == ErrorCode::InvalidOperator);
  const Tensor wrong = random_tensor({3}, 3);
  CHECK(thrown_code([&] {
          OpCall{"BatchNormalization", 15, {}}.run({x, wrong, p, p, p});
        }) == ErrorCode::InvalidOperator);
}

TEST_CASE("InstanceNormalization against per-plane statistics") {
  const Tensor x = random_tensor({2, 3, 4, 5}, 21, -3, 3);
  const Tensor scale = random_tensor({3}, 22);
  const Tensor bias = random_tensor({3}, 23);
  const std::vector<double> xs = x.to_doubles(), s = scale.to_doubles(), b = bias.to_doubles();
  std::vector<double> expected(xs.size());
  for (std::int64_t n = 0; n < 2; ++n)
    for (std::int64_t c = 0; c < 3; ++c) {
      const Moments plane = moments(xs, 2, 3, 20, n, c);
      for (std::int64_t i = 0; i < 20; ++i) {
        const std::size_t at = static_cast<std::size_t>((n * 3 + c) * 20 + i);
        expected[at] =
            s[static_cast<std::size_t>(c)] * (xs[at] - plane.mean) / std::sqrt(plane.variance + 1e-3) +
            b[static_cast<std::size_t>(c)];
      }
    }
  const OpCall op{"InstanceNormalization", 11, attrs({{"epsilon", 1e-3f}})};
  check_all_close(op.run_one({x, scale, bias}), x.shape(), expected, 1e-5, 1e-5);
  CHECK(op.cost({ValueInfo::from_shape("x", DType::Float32, {2, 3, 4, 5})}, {}).unit == ComputeUnit::Vector);
}

TEST_CASE("LayerNormalization: axis, broadcast scale, Mean and InvStdDev") {
  const Tensor x = random_tensor({2, 3, 4}, 31, -2, 2);
  const std::vector<double> xs = x.to_doubles();
  for (std::int64_t axis : {1, -1, -2}) {
    const std::int64_t first = axis < 0 ? axis + 3 : axis;
    const std::int64_t rows = first == 1 ? 2 : 6;
    const std::int64_t columns = 24 / rows;
    // Scale covers only the last axis and broadcasts over the normalised axes; B is full size.
    const Tensor scale = random_tensor({4}, 32);
    const Shape bias_shape = first == 1 ? Shape{3, 4} : Shape{4};
    const Tensor bias = random_tensor(bias_shape, 33);
    const std::vector<double> s = scale.to_doubles(), b = bias.to_doubles();
    std::vector<double> expected(xs.size()), means, inv_std_devs;
    for (std::int64_t r = 0; r < rows; ++r) {
      double sum = 0, squares = 0;
      for (std::int64_t i = 0; i < columns; ++i) sum += xs[static_cast<std::size_t>(r * columns + i)];
      const double mean = sum / static_cast<double>(columns);
      for (std::int64_t i = 0; i < columns; ++i) {
        const double d = xs[static_cast<std::size_t>(r * columns + i)] - mean;
        squares += d * d;
      }
      const double inv = 1.0 / std::sqrt(squares / static_cast<double>(columns) + 1e-5);
      means.push_back(mean);
      inv_std_devs.push_back(inv);
      for (std::int64_t i = 0; i < columns; ++i) {
        const std::size_t at = static_cast<std::size_t>(r * columns + i);
        expected[at] =
            (xs[at] - mean) * inv * s[static_cast<std::size_t>(i % 4)] + b[static_cast<std::size_t>(i)];
      }
    }
    const OpCall op{"LayerNormalization", 17, attrs({{"axis", axis}}), 3};
    const std::vector<Tensor> out = op.run({x, scale, bias});
    const Shape statistics = first == 1 ? Shape{2, 1, 1} : Shape{2, 3, 1};
    check_all_close(out[0], x.shape(), expected, 1e-5, 1e-5);
    check_all_close(out[1], statistics, means, 1e-5, 1e-6);
    check_all_close(out[2], statistics, inv_std_devs, 1e-5, 1e-6);
    CHECK(out[1].dtype() == DType::Float32);
  }
  const OpCall op{"LayerNormalization", 17, attrs({{"axis", std::int64_t{1}}}), 3};
  const std::vector<ValueInfo> inferred =
      op.infer({ValueInfo{"x", DType::Float16, std::vector<Dim>{Dim::symbolic("b"), 3, 4}},
                ValueInfo::from_shape("s", DType::Float16, {3, 4})});
  CHECK(inferred[0].dtype == DType::Float16);
  CHECK(inferred[1].dtype == DType::Float32);
  CHECK(*inferred[2].shape == std::vector<Dim>{Dim::symbolic("b"), 1, 1});
  CHECK(thrown_code([&] {
          OpCall{"LayerNormalization", 17, attrs({{"axis", std::int64_t{4}}})}.run({x, x});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] {
          OpCall{"LayerNormalization", 17, {}}.run({x, random_tensor({3}, 1)});
        }) == ErrorCode::InvalidOperator);
}

TEST_CASE("LayerNormalization's vector work on an fp16 NPU counts TBE layer_norm's fp32 steps twice") {
  // About 6 operations per element on a host or an fp32 device. On an fp16 device CANN's kernel
  // runs 16 DSL steps at fp32 (cast, scale, sum, subtract, square, scale, sum, subtract, add
  // epsilon, log, scale, exp, multiply, gamma, beta, cast), each instruction covering half the
  // elements: 32 fp16 instructions per element.
  const std::vector<ValueInfo> inputs{ValueInfo::from_shape("x", DType::Float32, {4, 8}),
                                      ValueInfo::from_shape("scale", DType::Float32, {8})};
  const std::vector<ValueInfo> outputs{ValueInfo::from_shape("y", DType::Float32, {4, 8})};
  const OpCall op{"LayerNormalization", 17, attrs({{"axis", std::int64_t{-1}}})};
  CHECK(op.cost(inputs, outputs).flops == 6.0 * 32);
  CHECK(op.flops_on_device(inputs, outputs, 2) == 32.0 * 32);
  CHECK(op.flops_on_device(inputs, outputs, 4) == 6.0 * 32);
}

TEST_CASE("LRN against the channel-window definition") {
  const Tensor x = random_tensor({2, 5, 3, 2}, 41, -2, 2);
  const std::vector<double> xs = x.to_doubles();
  for (std::int64_t size : {3, 4}) {
    const double alpha = 2e-2, beta = 0.6, bias = 1.5;
    std::vector<double> expected(xs.size());
    for (std::int64_t n = 0; n < 2; ++n)
      for (std::int64_t c = 0; c < 5; ++c)
        for (std::int64_t i = 0; i < 6; ++i) {
          double squares = 0;
          for (std::int64_t k = c - (size - 1) / 2; k <= c + size / 2;
               ++k)  // ceil((size - 1) / 2) = size / 2
            if (k >= 0 && k < 5) squares += std::pow(xs[static_cast<std::size_t>((n * 5 + k) * 6 + i)], 2);
          const std::size_t at = static_cast<std::size_t>((n * 5 + c) * 6 + i);
          expected[at] = xs[at] / std::pow(bias + alpha / static_cast<double>(size) * squares, beta);
        }
    const OpCall op{"LRN", 13,
                    attrs({{"size", size},
                           {"alpha", static_cast<float>(alpha)},
                           {"beta", static_cast<float>(beta)},
                           {"bias", static_cast<float>(bias)}})};
    check_all_close(op.run_one({x}), x.shape(), expected, 1e-5, 1e-6);
  }
  CHECK(thrown_code([&] { OpCall{"LRN", 13, {}}.run({x}); }) == ErrorCode::InvalidOperator);  // size required
}

TEST_CASE("MeanVarianceNormalization over the default and custom axes") {
  const Tensor x = random_tensor({2, 3, 2, 2}, 51, -1, 3);
  const std::vector<double> xs = x.to_doubles();
  std::vector<double> expected(xs.size());
  for (std::int64_t c = 0; c < 3; ++c) {
    const Moments m = moments(xs, 2, 3, 4, -1, c);
    for (std::int64_t n = 0; n < 2; ++n)
      for (std::int64_t i = 0; i < 4; ++i) {
        const std::size_t at = static_cast<std::size_t>((n * 3 + c) * 4 + i);
        expected[at] = (xs[at] - m.mean) / (std::sqrt(m.variance) + 1e-9);
      }
  }
  check_all_close(OpCall{"MeanVarianceNormalization", 13, {}}.run_one({x}), x.shape(), expected, 1e-5, 1e-5);

  // axes [1, 2, 3]: one mean and variance per batch item.
  std::vector<double> per_item(xs.size());
  for (std::int64_t n = 0; n < 2; ++n) {
    const Moments m = moments(xs, 2, 1, 12, n, 0);
    for (std::int64_t i = 0; i < 12; ++i) {
      const std::size_t at = static_cast<std::size_t>(n * 12 + i);
      per_item[at] = (xs[at] - m.mean) / (std::sqrt(m.variance) + 1e-9);
    }
  }
  check_all_close(OpCall{"MeanVarianceNormalization", 13, attrs({{"axes", Ints{1, 2, 3}}})}.run_one({x}),
                  x.shape(), per_item, 1e-5, 1e-5);
  CHECK(thrown_code([&] {
          OpCall{"MeanVarianceNormalization", 13, attrs({{"axes", Ints{4}}})}.run({x});
        }) == ErrorCode::InvalidOperator);
}

}  // namespace asc::test
