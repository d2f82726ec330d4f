// MatMul, Gemm, Softmax and LayerNormalization with several threads, on shapes large enough that
// the kernels split their work (batches, row or column blocks, lines), against float64 loops.
#include <algorithm>
#include <atomic>
#include <cmath>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

// [batch, m, k] x [batch or 1, k, n] in float64.
std::vector<double> batched_product(const std::vector<double>& a, const std::vector<double>& b, int batch, int m, int k,
                                    int n, bool shared_b) {
  std::vector<double> out;
  for (int i = 0; i < batch; ++i)
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c) {
        double sum = 0;
        for (int j = 0; j < k; ++j) sum += a[(i * m + r) * k + j] * b[((shared_b ? 0 : i) * k + j) * n + c];
        out.push_back(sum);
      }
  return out;
}

}  // namespace

TEST_CASE("MatMul with threads: batches per thread, and one product split by rows or columns") {
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    OpCall matmul{"MatMul", 13};
    matmul.threads = threads;
    // 8 matrices: whole products shared between the threads.
    const Tensor a = random_tensor({8, 40, 48}, 1), b = random_tensor({8, 48, 36}, 2);
    check_all_close(matmul.run_one({a, b}), {8, 40, 36},
                    batched_product(a.to_doubles(), b.to_doubles(), 8, 40, 48, 36, false), 1e-4, 1e-5);
    // One shared B: one tall product cut into row blocks.
    const Tensor tall = random_tensor({2, 300, 96}, 3), weight = random_tensor({96, 80}, 4);
    check_all_close(matmul.run_one({tall, weight}), {2, 300, 80},
                    batched_product(tall.to_doubles(), weight.to_doubles(), 1, 600, 96, 80, true), 1e-4, 1e-5);
    // Few rows, many columns: column blocks.
    const Tensor wide_a = random_tensor({40, 64}, 5), wide_b = random_tensor({64, 300}, 6);
    check_all_close(matmul.run_one({wide_a, wide_b}), {40, 300},
                    batched_product(wide_a.to_doubles(), wide_b.to_doubles(), 1, 40, 64, 300, true), 1e-4, 1e-5);
  }
}

TEST_CASE("Gemm with threads and transposed operands, split by rows and by columns") {
  for (const auto& [m, n] : {std::pair{200, 64}, std::pair{40, 300}}) {
    const int rows = m;  // clang 14 cannot capture a structured binding
    CAPTURE(rows);
    const int k = 96;
    const Tensor at = random_tensor({k, m}, 7), bt = random_tensor({n, k}, 8), c = random_tensor({n}, 9);
    const std::vector<double> av = at.to_doubles(), bv = bt.to_doubles(), cv = c.to_doubles();
    std::vector<double> expected;
    for (int r = 0; r < m; ++r)
      for (int col = 0; col < n; ++col) {
        double sum = 0;
        for (int j = 0; j < k; ++j) sum += av[j * m + r] * bv[col * k + j];
        expected.push_back(0.5 * sum + 2.0 * cv[col]);
      }
    OpCall gemm{"Gemm", 13, attrs({{"transA", std::int64_t{1}}, {"transB", std::int64_t{1}}, {"alpha", 0.5f},
                                  {"beta", 2.0f}})};
    gemm.threads = 2;
    check_all_close(gemm.run_one({at, bt, c}), {m, n}, expected, 1e-4, 1e-5);
  }
}

TEST_CASE("Softmax and LogSoftmax with threads, along the last and a middle axis") {
  const Tensor x = random_tensor({3, 70, 130}, 10, -8.0f, 8.0f);
  const std::vector<double> v = x.to_doubles();
  for (std::int64_t axis : {std::int64_t{-1}, std::int64_t{1}}) {
    CAPTURE(axis);
    const int length = axis == -1 ? 130 : 70;
    const int inner = axis == -1 ? 1 : 130;
    std::vector<double> soft(v.size()), log_soft(v.size());
    for (int o = 0; o < 3 * (axis == -1 ? 70 : 1); ++o)
      for (int i = 0; i < inner; ++i) {
        const int base = o * length * inner + i;
        double peak = -INFINITY, sum = 0;
        for (int j = 0; j < length; ++j) peak = std::max(peak, v[base + j * inner]);
        for (int j = 0; j < length; ++j) sum += std::exp(v[base + j * inner] - peak);
        for (int j = 0; j < length; ++j) {
          soft[base + j * inner] = std::exp(v[base + j * inner] - peak) / sum;
          log_soft[base + j * inner] = v[base + j * inner] - peak - std::log(sum);
        }
      }
    for (int threads : {2, 3}) {
      OpCall softmax{"Softmax", 13, attrs({{"axis", axis}})};
      softmax.threads = threads;
      check_all_close(softmax.run_one({x}), x.shape(), soft, 1e-6, 1e-7);
      OpCall log_softmax{"LogSoftmax", 13, attrs({{"axis", axis}})};
      log_softmax.threads = threads;
      check_all_close(log_softmax.run_one({x}), x.shape(), log_soft, 1e-6, 1e-6);

      // The output epilogue (y -> 2y + 1, SDK 0.6) on each block of lines, once per element,
      // where the lines lie along memory (the last axis); elsewhere it is left to the caller.
      std::vector<std::atomic<int>> visits(v.size());
      softmax.output_epilogue = [&visits](Tensor& y, std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
          y.data<float>()[i] = 2 * y.data<float>()[i] + 1;
          ++visits[static_cast<std::size_t>(i)];
        }
      };
      const Tensor y = softmax.run_one({x});
      const bool along_memory = axis == -1;
      CHECK(softmax.output_epilogue_done == along_memory);
      std::vector<double> expected = soft;
      if (along_memory)
        for (double& value : expected) value = 2 * value + 1;
      check_all_close(y, x.shape(), expected, 1e-6, 1e-6);
      CHECK(std::count_if(visits.begin(), visits.end(), [&](const std::atomic<int>& n) {
              return n != (along_memory ? 1 : 0);
            }) == 0);
    }
  }
}

TEST_CASE("MatMul runs the output epilogue on each matrix where threads take whole products") {
  // y -> 2y + 1 (KernelContext::output_epilogue), each element counted: 8 products on 2 threads
  // take it, once per element; one product split between the threads, or a shared B (one tall
  // product), leave it to the caller.
  struct Case {
    Shape a_shape, b_shape;
    bool per_matrix;
  };
  const Case cases[] = {{{8, 40, 48}, {8, 48, 36}, true}, {{1, 40, 48}, {1, 48, 36}, false}, {{2, 300, 96}, {96, 80}, false}};
  for (const Case& c : cases) {
    CAPTURE(c.a_shape);
    const Tensor a = random_tensor(c.a_shape, 30), b = random_tensor(c.b_shape, 31);
    const int batch = static_cast<int>(c.a_shape[0]), m = static_cast<int>(c.a_shape[1]),
              k = static_cast<int>(c.a_shape[2]), n = static_cast<int>(c.b_shape.back());
    const bool shared_b = c.b_shape.size() == 2;
    std::vector<double> expected = batched_product(a.to_doubles(), b.to_doubles(), batch, m, k, n, shared_b);
    std::vector<std::atomic<int>> visits(expected.size());
    OpCall matmul{"MatMul", 13};
    matmul.threads = 2;
    matmul.output_epilogue = [&visits](Tensor& y, std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i) {
        y.data<float>()[i] = 2 * y.data<float>()[i] + 1;
        ++visits[static_cast<std::size_t>(i)];
      }
    };
    const Tensor y = matmul.run_one({a, b});
    CHECK(matmul.output_epilogue_done == c.per_matrix);
    if (c.per_matrix)
      for (double& value : expected) value = 2 * value + 1;
    check_all_close(y, {batch, m, n}, expected, 1e-4, 1e-5);
    CHECK(std::count_if(visits.begin(), visits.end(), [&](const std::atomic<int>& count) {
            return count != (c.per_matrix ? 1 : 0);
          }) == 0);
  }
}

TEST_CASE("LayerNormalization with threads: every row normalised with its own statistics") {
  const int rows = 500, columns = 96;
  const Tensor x = random_tensor({5, 100, columns}, 11, -3.0f, 5.0f);
  const Tensor scale = random_tensor({columns}, 12), bias = random_tensor({columns}, 13);
  const std::vector<double> v = x.to_doubles(), s = scale.to_doubles(), b = bias.to_doubles();
  std::vector<double> expected;
  for (int r = 0; r < rows; ++r) {
    double mean = 0, variance = 0;
    for (int i = 0; i < columns; ++i) mean += v[r * columns + i] / columns;
    for (int i = 0; i < columns; ++i) variance += (v[r * columns + i] - mean) * (v[r * columns + i] - mean) / columns;
    for (int i = 0; i < columns; ++i)
      expected.push_back((v[r * columns + i] - mean) / std::sqrt(variance + 1e-5) * s[i] + b[i]);
  }
  OpCall layer_norm{"LayerNormalization", 17, attrs({{"axis", std::int64_t{-1}}})};
  layer_norm.threads = 2;
  check_all_close(layer_norm.run_one({x, scale, bias}), x.shape(), expected, 1e-5, 1e-5);
}

}  // namespace asc::test
