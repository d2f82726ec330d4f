// Numpy broadcasting through Add/Sub/Mul/Where: hand-computed results for the shapes the fast
// paths and the general loop handle.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {

TEST_CASE("same-shape operands add elementwise") {
  const Tensor out = OpCall{"Add"}.run_one({floats({2, 2}, {1, 2, 3, 4}), floats({2, 2}, {10, 20, 30, 40})});
  check_values(out, DType::Float32, {2, 2}, {11, 22, 33, 44});
}

TEST_CASE("column [3,1] against row [1,4] gives [3,4]") {
  const Tensor out = OpCall{"Add"}.run_one({floats({3, 1}, {1, 2, 3}), floats({1, 4}, {10, 20, 30, 40})});
  check_values(out, DType::Float32, {3, 4}, {11, 21, 31, 41, 12, 22, 32, 42, 13, 23, 33, 43});
}

TEST_CASE("scalar operands on either side") {
  check_values(OpCall{"Mul"}.run_one({floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({}, {2})}), DType::Float32,
               {2, 3}, {2, 4, 6, 8, 10, 12});
  check_values(OpCall{"Sub"}.run_one({floats({}, {10}), floats({3}, {1, 2, 3})}), DType::Float32, {3},
               {9, 8, 7});
  check_values(OpCall{"Sub"}.run_one({floats({}, {10}), floats({}, {4})}), DType::Float32, {}, {6});
  // A one-element tensor of rank 1 behaves like a scalar but keeps the larger rank.
  check_values(OpCall{"Sub"}.run_one({floats({1}, {10}), floats({2, 2}, {1, 2, 3, 4})}), DType::Float32,
               {2, 2}, {9, 8, 7, 6});
}

TEST_CASE("rank mismatch: trailing dimensions align") {
  std::vector<float> a(24);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  std::vector<double> expected(24);
  for (std::size_t i = 0; i < 24; ++i) expected[i] = static_cast<double>(i) + 100.0 * static_cast<double>(i % 4 + 1);
  check_values(OpCall{"Add"}.run_one({floats({2, 3, 4}, a), floats({4}, {100, 200, 300, 400})}),
               DType::Float32, {2, 3, 4}, expected);
}

TEST_CASE("both operands broadcast in different dimensions") {
  // [2,1,4] + [3,1] -> [2,3,4]: out[i][j][k] = a[i][0][k] + b[j][0]
  std::vector<float> a{1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> b{100, 200, 300};
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) expected.push_back(a[i * 4 + k] + b[j]);
  check_values(OpCall{"Add"}.run_one({floats({2, 1, 4}, a), floats({3, 1}, b)}), DType::Float32, {2, 3, 4},
               expected);

  // [1,3,1,2] * [2,1,2,1] -> [2,3,2,2]
  std::vector<float> c{1, 2, 3, 4, 5, 6};
  std::vector<float> d{1, 10, 100, 1000};
  std::vector<double> product;
  for (int n = 0; n < 2; ++n)
    for (int ch = 0; ch < 3; ++ch)
      for (int h = 0; h < 2; ++h)
        for (int w = 0; w < 2; ++w) product.push_back(c[ch * 2 + w] * d[n * 2 + h]);
  check_values(OpCall{"Mul"}.run_one({floats({1, 3, 1, 2}, c), floats({2, 1, 2, 1}, d)}), DType::Float32,
               {2, 3, 2, 2}, product);
}

TEST_CASE("per-channel bias [1,C,1,1] over NCHW") {
  std::vector<float> x(2 * 3 * 2 * 2, 1.0f);
  std::vector<double> expected;
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < 4; ++i) expected.push_back(1.0 + (c + 1));
  check_values(OpCall{"Add"}.run_one({floats({2, 3, 2, 2}, x), floats({1, 3, 1, 1}, {1, 2, 3})}),
               DType::Float32, {2, 3, 2, 2}, expected);
}

TEST_CASE("empty tensors broadcast to an empty result") {
  const Tensor out = OpCall{"Add"}.run_one({floats({0, 3}, {}), floats({3}, {1, 2, 3})});
  CHECK(out.shape() == Shape{0, 3});
  CHECK(out.numel() == 0);
}

TEST_CASE("incompatible shapes are refused with EE2003") {
  CHECK(thrown_code([] {
          OpCall{"Add"}.run_one({floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({4}, {1, 2, 3, 4})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] {
          OpCall{"Mul"}.run_one({floats({3, 1}, {1, 2, 3}), floats({2, 1}, {1, 2})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] {
          OpCall{"Add"}.run_one({floats({2}, {1, 2}), tensor<double>({2}, {1, 2})});
        }) == ErrorCode::InvalidOperator);
}

TEST_CASE("Where selects with a three-way broadcast") {
  const Tensor same = OpCall{"Where"}.run_one(
      {bools({2, 2}, {true, false, true, true}), floats({2, 2}, {1, 2, 3, 4}), floats({2, 2}, {9, 8, 7, 6})});
  check_values(same, DType::Float32, {2, 2}, {1, 8, 3, 4});

  // condition [2,1], X [1,3], Y scalar -> [2,3]
  const Tensor mixed =
      OpCall{"Where"}.run_one({bools({2, 1}, {true, false}), tensor<std::int64_t>({1, 3}, {1, 2, 3}),
                               tensor<std::int64_t>({}, {-1})});
  check_ints(mixed, DType::Int64, {2, 3}, {1, 2, 3, -1, -1, -1});

  CHECK(thrown_code([] {
          OpCall{"Where"}.run_one({floats({2}, {1, 0}), floats({2}, {1, 2}), floats({2}, {3, 4})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] {
          OpCall{"Where"}.run_one(
              {bools({2}, {true, false}), floats({2}, {1, 2}), tensor<double>({2}, {3, 4})});
        }) == ErrorCode::InvalidOperator);
}

// Large enough (>= 64K elements) that the kernels split the elements between threads. A float sum
// or product of two floats is the float rounding of their double result, so the expectations are
// exact.
TEST_CASE("elementwise kernels on many elements, on 1 and 3 threads: same-shape, row, scalar and deep broadcasts") {
  const Tensor a = random_tensor({180, 400}, 1, -4.0f, 4.0f);
  const Tensor b = random_tensor({180, 400}, 2, -4.0f, 4.0f);
  const Tensor row = random_tensor({400}, 3, -4.0f, 4.0f);
  const Tensor scalar = floats({}, {-1.5f});
  const Tensor column = random_tensor({4, 1, 1000}, 4);
  const Tensor middle = random_tensor({1, 30, 1}, 5);
  const Tensor image_a = random_tensor({1, 64, 40, 40}, 6).channels_last();
  const Tensor image_b = random_tensor({1, 64, 40, 40}, 7).channels_last();
  const auto av = a.to_doubles(), bv = b.to_doubles(), rv = row.to_doubles(), cv = column.to_doubles(),
             mv = middle.to_doubles(), iav = image_a.to_doubles(), ibv = image_b.to_doubles();
  std::vector<double> sum(av.size()), row_product(av.size()), scaled(av.size()), relu(av.size()), deep(4 * 30 * 1000),
      image_sum(iav.size());
  for (std::size_t i = 0; i < av.size(); ++i) {
    sum[i] = static_cast<float>(av[i] + bv[i]);
    row_product[i] = static_cast<float>(av[i] * rv[i % 400]);
    scaled[i] = static_cast<float>(av[i] * -1.5);
    relu[i] = av[i] < 0 ? 0.0 : av[i];
  }
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 30; ++j)
      for (std::size_t k = 0; k < 1000; ++k) deep[(i * 30 + j) * 1000 + k] = static_cast<float>(cv[i * 1000 + k] - mv[j]);
  for (std::size_t i = 0; i < iav.size(); ++i) image_sum[i] = static_cast<float>(iav[i] + ibv[i]);
  for (const int threads : {1, 3}) {
    CAPTURE(threads);
    OpCall add{"Add"}, mul{"Mul"}, sub{"Sub"}, rectify{"Relu"};
    add.threads = mul.threads = sub.threads = rectify.threads = threads;
    check_values(add.run_one({a, b}), DType::Float32, {180, 400}, sum);
    check_values(mul.run_one({a, row}), DType::Float32, {180, 400}, row_product);
    check_values(mul.run_one({scalar, a}), DType::Float32, {180, 400}, scaled);
    check_values(rectify.run_one({a}), DType::Float32, {180, 400}, relu);
    check_values(sub.run_one({column, middle}), DType::Float32, {4, 30, 1000}, deep);
    const Tensor images = add.run_one({image_a, image_b});  // channels-last: one run along memory
    CHECK(images.is_channels_last());
    check_values(images, DType::Float32, {1, 64, 40, 40}, image_sum);
  }
}

}  // namespace asc::test
