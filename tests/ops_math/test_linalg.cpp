// MatMul, Gemm, MatMulInteger and Det against naive float64 loops and hand-computed values.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

TEST_CASE("MatMul broadcasts batch dimensions [2,1,3,4] x [5,4,2]") {
  const Tensor a = random_tensor({2, 1, 3, 4}, 1);
  const Tensor b = random_tensor({5, 4, 2}, 2);
  const std::vector<double> av = a.to_doubles(), bv = b.to_doubles();
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 5; ++j)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 2; ++c) {
          double sum = 0;
          for (int k = 0; k < 4; ++k) sum += av[i * 12 + r * 4 + k] * bv[j * 8 + k * 2 + c];
          expected.push_back(sum);
        }
  check_close(run_one("MatMul", 13, {a, b}), {2, 5, 3, 2}, expected);
}

TEST_CASE("MatMul promotes 1-D operands and drops the promoted dimension") {
  const Tensor v = Tensor::from_vector<float>({4}, {1, 2, 3, 4});
  const Tensor m42 = Tensor::from_vector<float>({4, 2}, {1, 0, 0, 1, 1, 1, 2, -1});
  const Tensor m34 = Tensor::from_vector<float>({3, 4}, {1, 1, 1, 1, 0, 1, 0, 1, 2, 0, 0, 0});
  // [4] x [4,2]: row vector times matrix.
  check_close(run_one("MatMul", 13, {v, m42}), {2}, {1 + 3 + 8, 2 + 3 - 4});
  // [3,4] x [4]: matrix times column vector.
  check_close(run_one("MatMul", 13, {m34, v}), {3}, {10, 6, 2});
  // [4] x [4]: inner product, a scalar.
  check_close(run_one("MatMul", 13, {v, v}), {}, {30});
  // [2,3,4] x [4]: batched matrix-vector.
  const Tensor batch = Tensor::from_vector<float>({2, 3, 4}, {1, 1, 1, 1, 0, 1, 0, 1, 2, 0, 0, 0,
                                                               0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0});
  check_close(run_one("MatMul", 13, {batch, v}), {2, 3}, {10, 6, 2, 4, 1, 3});
}

TEST_CASE("MatMul on int32 and double") {
  const Tensor a = Tensor::from_vector<std::int32_t>({2, 2}, {1, 2, 3, 4});
  const Tensor b = Tensor::from_vector<std::int32_t>({2, 2}, {5, 6, 7, 8});
  const Tensor y = run_one("MatMul", 13, {a, b});
  CHECK(y.dtype() == DType::Int32);
  CHECK(y.to_int64s() == std::vector<std::int64_t>{19, 22, 43, 50});
  const Tensor d = run_one("MatMul", 13, {a.cast(DType::Float64), b.cast(DType::Float64)});
  CHECK(d.dtype() == DType::Float64);
  check_close(d, {2, 2}, {19, 22, 43, 50});
}

TEST_CASE("MatMul rejects mismatched inner dimensions and unsupported dtypes") {
  CHECK(thrown_code([] {
          run_one("MatMul", 13, {random_tensor({3, 4}, 1), random_tensor({5, 2}, 2)});
        }) == ErrorCode::InvalidOperator);
  const Tensor flags = Tensor::from_vector<bool>({1, 1}, {true});
  CHECK(thrown_code([&] { run_one("MatMul", 13, {flags, flags}); }) == ErrorCode::OperatorDtypeUnsupported);
}

TEST_CASE("MatMul inference keeps symbolic batch dimensions") {
  const auto out = infer_op("MatMul", 13, {info(DType::Float32, {Dim::symbolic("batch"), 3, 4}),
                                           info(DType::Float32, {4, 5})});
  REQUIRE(out[0].shape.has_value());
  CHECK(*out[0].shape == std::vector<Dim>{Dim::symbolic("batch"), 3, 5});
  CHECK(out[0].dtype == DType::Float32);
  CHECK(thrown_code([] { infer_op("MatMul", 13, {info(DType::Float32, {3, 4}), info(DType::Float32, {5, 2})}); }) ==
        ErrorCode::InvalidOperator);
}

TEST_CASE("MatMul cost counts 2*M*N*K per output matrix on the cube unit") {
  const CostFacts facts = cost_op("MatMul", 13, {ValueInfo::from_shape("a", DType::Float32, {2, 1, 3, 4}),
                                                 ValueInfo::from_shape("b", DType::Float32, {5, 4, 2})},
                                  {ValueInfo::from_shape("y", DType::Float32, {2, 5, 3, 2})});
  CHECK(facts.unit == ComputeUnit::Cube);
  CHECK(facts.flops == doctest::Approx(2.0 * 3 * 2 * 4 * 10));
  CHECK(facts.bytes_read == (24 + 40) * 4);
  CHECK(facts.bytes_written == 60 * 4);
}

// Y = alpha * A^T * B^T + beta * C for A stored [K,M] = [4,3] and B stored [N,K] = [5,4].
std::vector<double> gemm_reference(const Tensor& a, const Tensor& b, const std::vector<double>& c_broadcast,
                                   double alpha, double beta) {
  const std::vector<double> av = a.to_doubles(), bv = b.to_doubles();
  std::vector<double> y;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += av[k * 3 + r] * bv[c * 4 + k];
      y.push_back(alpha * sum + beta * c_broadcast[r * 5 + c]);
    }
  return y;
}

TEST_CASE("Gemm with transA, transB, alpha, beta and broadcast C") {
  const Tensor a = random_tensor({4, 3}, 3);
  const Tensor b = random_tensor({5, 4}, 4);
  const Attributes attributes = attrs({{"transA", std::int64_t{1}}, {"transB", std::int64_t{1}},
                                       {"alpha", 0.5f}, {"beta", 2.0f}});
  SUBCASE("C as a row [N]") {
    const Tensor c = Tensor::from_vector<float>({5}, {1, 2, 3, 4, 5});
    std::vector<double> broadcast;
    for (int r = 0; r < 3; ++r)
      for (int col = 0; col < 5; ++col) broadcast.push_back(col + 1);
    check_close(run_one("Gemm", 13, {a, b, c}, attributes), {3, 5}, gemm_reference(a, b, broadcast, 0.5, 2.0));
  }
  SUBCASE("C as a column [M,1]") {
    const Tensor c = Tensor::from_vector<float>({3, 1}, {10, 20, 30});
    std::vector<double> broadcast;
    for (int r = 0; r < 3; ++r)
      for (int col = 0; col < 5; ++col) broadcast.push_back(10.0 * (r + 1));
    check_close(run_one("Gemm", 13, {a, b, c}, attributes), {3, 5}, gemm_reference(a, b, broadcast, 0.5, 2.0));
  }
  SUBCASE("C as a scalar") {
    const Tensor c = Tensor::scalar<float>(-1.5f);
    check_close(run_one("Gemm", 11, {a, b, c}, attributes), {3, 5},
                gemm_reference(a, b, std::vector<double>(15, -1.5), 0.5, 2.0));
  }
  SUBCASE("C omitted") {
    check_close(run_one("Gemm", 11, {a, b, Tensor()}, attributes), {3, 5},
                gemm_reference(a, b, std::vector<double>(15, 0.0), 0.5, 2.0));
    check_close(run_one("Gemm", 11, {a, b}, attributes), {3, 5},
                gemm_reference(a, b, std::vector<double>(15, 0.0), 0.5, 2.0));
  }
  SUBCASE("C that does not broadcast to [M,N]") {
    const Tensor c = random_tensor({2, 5}, 5);
    CHECK(thrown_code([&] { run_one("Gemm", 13, {a, b, c}, attributes); }) == ErrorCode::InvalidOperator);
  }
}

TEST_CASE("Gemm without transposes, inference and cost") {
  const Tensor a = Tensor::from_vector<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor b = Tensor::from_vector<float>({3, 2}, {1, 0, 0, 1, 1, 1});
  check_close(run_one("Gemm", 13, {a, b}), {2, 2}, {4, 5, 10, 11});
  const auto out = infer_op("Gemm", 13, {info(DType::Float32, {7, Dim::symbolic("m")}), info(DType::Float32, {9, 7})},
                            attrs({{"transA", std::int64_t{1}}, {"transB", std::int64_t{1}}}));
  CHECK(*out[0].shape == std::vector<Dim>{Dim::symbolic("m"), 9});
  const CostFacts facts = cost_op("Gemm", 13, {ValueInfo::from_shape("a", DType::Float32, {2, 3}),
                                               ValueInfo::from_shape("b", DType::Float32, {3, 2})},
                                  {ValueInfo::from_shape("y", DType::Float32, {2, 2})});
  CHECK(facts.flops == doctest::Approx(2.0 * 2 * 2 * 3));
  CHECK(facts.unit == ComputeUnit::Cube);
}

TEST_CASE("MatMulInteger subtracts zero points (ONNX documentation example)") {
  const Tensor a = Tensor::from_vector<std::uint8_t>({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0});
  const Tensor b = Tensor::from_vector<std::uint8_t>({3, 2}, {1, 4, 2, 5, 3, 6});
  const Tensor y = run_one("MatMulInteger", 11,
                           {a, b, Tensor::from_vector<std::uint8_t>({1}, {12}), Tensor::from_vector<std::uint8_t>({1}, {0})});
  CHECK(y.dtype() == DType::Int32);
  CHECK(y.shape() == Shape{4, 2});
  CHECK(y.to_int64s() == std::vector<std::int64_t>{-38, -83, -44, -98, -50, -113, -56, -128});
  // Per-row zero points of A: row r subtracts r.
  const Tensor per_row = run_one("MatMulInteger", 11, {a, b, Tensor::from_vector<std::uint8_t>({4}, {0, 1, 2, 3})});
  // Row 1 is [9,5,1]: 9*1+5*2+1*3 = 22 and 9*4+5*5+1*6 = 67.
  CHECK(per_row.to_int64s()[2] == 22);
  CHECK(per_row.to_int64s()[3] == 67);
}

TEST_CASE("Det of single and batched matrices") {
  check_close(run_one("Det", 11, {Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4})}), {}, {-2});
  const Tensor batch = Tensor::from_vector<double>({2, 3, 3}, {6, 1, 1, 4, -2, 5, 2, 8, 7,  //
                                                              1, 2, 3, 4, 5, 6, 7, 8, 9});
  check_close(run_one("Det", 11, {batch}), {2}, {-306, 0}, 1e-9, 1e-9);
  CHECK(thrown_code([] { run_one("Det", 11, {Tensor::from_vector<float>({2, 3}, {1, 2, 3, 4, 5, 6})}); }) ==
        ErrorCode::InvalidOperator);
}

}  // namespace
}  // namespace asc::test
