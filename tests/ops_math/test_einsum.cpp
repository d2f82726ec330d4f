// Einsum equations against naive float64 loops written out per equation.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

Tensor einsum(const std::string& equation, const std::vector<Tensor>& inputs) {
  return run_one("Einsum", 12, inputs, attrs({{"equation", equation}}));
}

TEST_CASE("Einsum matrix product, explicit and implicit") {
  const Tensor a = random_tensor({3, 4}, 1);
  const Tensor b = random_tensor({4, 5}, 2);
  const auto av = a.to_doubles(), bv = b.to_doubles();
  std::vector<double> expected;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 5; ++k) {
      double sum = 0;
      for (int j = 0; j < 4; ++j) sum += av[i * 4 + j] * bv[j * 5 + k];
      expected.push_back(sum);
    }
  check_close(einsum("ij,jk->ik", {a, b}), {3, 5}, expected);
  check_close(einsum("ij,jk", {a, b}), {3, 5}, expected);
  check_close(einsum(" i j , j k -> i k ", {a, b}), {3, 5}, expected);
}

TEST_CASE("Einsum batched matrix product bij,bjk->bik") {
  const Tensor a = random_tensor({2, 3, 4}, 3);
  const Tensor b = random_tensor({2, 4, 2}, 4);
  const auto av = a.to_doubles(), bv = b.to_doubles();
  std::vector<double> expected;
  for (int n = 0; n < 2; ++n)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 2; ++k) {
        double sum = 0;
        for (int j = 0; j < 4; ++j) sum += av[n * 12 + i * 4 + j] * bv[n * 8 + j * 2 + k];
        expected.push_back(sum);
      }
  check_close(einsum("bij,bjk->bik", {a, b}), {2, 3, 2}, expected);
}

TEST_CASE("Einsum diagonal, inner product and trace") {
  const Tensor m = Tensor::from_vector<float>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  check_close(einsum("ii->i", {m}), {3}, {1, 5, 9});
  check_close(einsum("ii", {m}), {}, {15});  // implicit: no label appears once, so a trace
  const Tensor v = Tensor::from_vector<float>({4}, {1, 2, 3, 4});
  const Tensor w = Tensor::from_vector<float>({4}, {-1, 0, 2, 0.5f});
  check_close(einsum("i,i->", {v, w}), {}, {-1 + 6 + 2});
  check_close(einsum("i,j->ij", {v, w}).reshaped({16}), {16},
              {-1, 0, 2, 0.5, -2, 0, 4, 1, -3, 0, 6, 1.5, -4, 0, 8, 2});
}

TEST_CASE("Einsum ellipsis transposes the last two dimensions") {
  const Tensor x = random_tensor({2, 3, 4, 5}, 5);
  const auto xv = x.to_doubles();
  std::vector<double> expected;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 4; ++i) expected.push_back(xv[((a * 3 + b) * 4 + i) * 5 + j]);
  check_close(einsum("...ij->...ji", {x}), {2, 3, 5, 4}, expected);
  // Implicit output puts the ellipsis first, then the single-use labels in order: ...ij.
  check_close(einsum("...ji", {x}), {2, 3, 5, 4}, expected);
}

TEST_CASE("Einsum broadcasts ellipsis dimensions of size 1") {
  const Tensor a = random_tensor({2, 1, 3}, 6);  // ... = [2,1]
  const Tensor b = random_tensor({4, 3}, 7);     // ... = [4]
  const auto av = a.to_doubles(), bv = b.to_doubles();
  std::vector<double> expected;
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < 4; ++q) {
      double sum = 0;
      for (int i = 0; i < 3; ++i) sum += av[p * 3 + i] * bv[q * 3 + i];
      expected.push_back(sum);
    }
  check_close(einsum("...i,...i->...", {a, b}), {2, 4}, expected);
}

TEST_CASE("Einsum with three operands and a summed private label") {
  const Tensor a = random_tensor({2, 3}, 8);
  const Tensor b = random_tensor({3, 4}, 9);
  const Tensor c = random_tensor({4, 5}, 10);
  const auto av = a.to_doubles(), bv = b.to_doubles(), cv = c.to_doubles();
  std::vector<double> expected(2, 0.0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 5; ++l) expected[i] += av[i * 3 + j] * bv[j * 4 + k] * cv[k * 5 + l];
  check_close(einsum("ij,jk,kl->i", {a, b, c}), {2}, expected);
}

TEST_CASE("Einsum inference and errors") {
  const auto out = infer_op("Einsum", 12,
                            {ValueInfo{"", DType::Float32, std::vector<Dim>{Dim::symbolic("b"), 3, 4}},
                             ValueInfo{"", DType::Float32, std::vector<Dim>{Dim::symbolic("b"), 4, 7}}},
                            attrs({{"equation", std::string("bij,bjk->bik")}}));
  CHECK(*out[0].shape == std::vector<Dim>{Dim::symbolic("b"), 3, 7});
  const Tensor m = random_tensor({2, 3}, 1);
  CHECK(thrown_code([&] { einsum("ij,jk->ik", {m}); }) == ErrorCode::InvalidOperator);      // term count
  CHECK(thrown_code([&] { einsum("ijk->i", {m}); }) == ErrorCode::InvalidOperator);         // rank
  CHECK(thrown_code([&] { einsum("ij->k", {m}); }) == ErrorCode::InvalidOperator);          // unknown output label
  CHECK(thrown_code([&] {
          einsum("ij,ij->i", {m, random_tensor({2, 4}, 2)});
        }) == ErrorCode::InvalidOperator);                                                  // sizes
  CHECK(thrown_code([&] { einsum("i1->i", {m}); }) == ErrorCode::InvalidOperator);          // character
}

TEST_CASE("Einsum cost: a contraction on the cube unit") {
  const CostFacts facts = cost_op("Einsum", 12,
                                  {ValueInfo::from_shape("a", DType::Float32, {3, 4}),
                                   ValueInfo::from_shape("b", DType::Float32, {4, 5})},
                                  {ValueInfo::from_shape("y", DType::Float32, {3, 5})},
                                  attrs({{"equation", std::string("ij,jk->ik")}}));
  CHECK(facts.unit == ComputeUnit::Cube);
  CHECK(facts.flops == doctest::Approx(2.0 * 3 * 4 * 5));
}

// Attention scores as exporters write them: heads and batch as GEMM batches, keys transposed into
// place, the output in another label order than the product's; on one thread and on two (whole
// products per thread).
TEST_CASE("Einsum bhqd,bkhd->bqhk on float32 with reordered operands and output, 1 and 2 threads") {
  const std::int64_t B = 2, H = 3, Q = 5, K = 4, D = 6;
  const Tensor q = random_tensor({B, H, Q, D}, 11);
  const Tensor k = random_tensor({B, K, H, D}, 12);
  const auto qv = q.to_doubles(), kv = k.to_doubles();
  std::vector<double> expected;
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t i = 0; i < Q; ++i)
      for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t j = 0; j < K; ++j) {
          double sum = 0;
          for (std::int64_t d = 0; d < D; ++d)
            sum += qv[static_cast<std::size_t>(((b * H + h) * Q + i) * D + d)] *
                   kv[static_cast<std::size_t>(((b * K + j) * H + h) * D + d)];
          expected.push_back(sum);
        }
  for (const int threads : {1, 2}) {
    CAPTURE(threads);
    OpCall call{"Einsum", 12, attrs({{"equation", std::string("bhqd,bkhd->bqhk")}})};
    call.threads = threads;
    const Tensor result = call.run_one({q, k});
    CHECK(result.dtype() == DType::Float32);
    check_close(result, {B, Q, H, K}, expected);
  }
}

}  // namespace
}  // namespace asc::test
