// PRelu's slope broadcasting, comparisons, boolean logic and BitShift.
#include <cstdint>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {

TEST_CASE("PRelu broadcasts the slope to X's shape") {
  const Tensor x = floats({2, 3}, {-1, -2, 3, -4, 5, -6});
  check_values(OpCall{"PRelu"}.run_one({x, floats({3}, {0.1f, 0.2f, 0.3f})}), DType::Float32, {2, 3},
               {-0.1, -0.4, 3, -0.4, 5, -1.8}, 1e-6);
  check_values(OpCall{"PRelu"}.run_one({x, floats({2, 1}, {0.5f, 2})}), DType::Float32, {2, 3},
               {-0.5, -1, 3, -8, 5, -12});
  check_values(OpCall{"PRelu"}.run_one({x, floats({}, {0.25f})}), DType::Float32, {2, 3},
               {-0.25, -0.5, 3, -1, 5, -1.5});
  // per-channel slope [C,1,1] over [N,C,H,W]
  check_values(OpCall{"PRelu"}.run_one({floats({1, 2, 1, 2}, {-1, 1, -1, 1}), floats({2, 1, 1}, {0.5f, 3})}),
               DType::Float32, {1, 2, 1, 2}, {-0.5, 1, -3, 1});
  check_ints(OpCall{"PRelu"}.run_one({tensor<std::int32_t>({2}, {-3, 3}), tensor<std::int32_t>({1}, {2})}),
             DType::Int32, {2}, {-6, 3});
}

TEST_CASE("PRelu reads an opset-6 style [C] slope per channel when numpy alignment is impossible") {
  // X [1,2,3], slope [2]: [2] cannot align with the last axis (3), so it scales channels
  check_values(OpCall{"PRelu"}.run_one({floats({1, 2, 3}, {-1, -2, 3, -1, -2, 3}), floats({2}, {0.5f, 3})}),
               DType::Float32, {1, 2, 3}, {-0.5, -1, 3, -3, -6, 3});
  CHECK(*OpCall{"PRelu"}
             .infer_one({info(DType::Float32, {Dim::symbolic("N"), 2, 3}), info(DType::Float32, {2})})
             .shape == std::vector<Dim>{Dim::symbolic("N"), 2, 3});
  // where numpy alignment works it wins: X [1,2,2], slope [2] scales the last axis
  check_values(OpCall{"PRelu"}.run_one({floats({1, 2, 2}, {-1, -1, -1, -1}), floats({2}, {0.5f, 3})}),
               DType::Float32, {1, 2, 2}, {-0.5, -3, -0.5, -3});
}

TEST_CASE("PRelu refuses slopes that would change X's shape") {
  const Tensor x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(thrown_code([&] {
          OpCall{"PRelu"}.run_one({x, floats({4}, {1, 2, 3, 4})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] {
          OpCall{"PRelu"}.run_one({x, floats({1, 2, 3}, {1, 2, 3, 4, 5, 6})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] {
          OpCall{"PRelu"}.run_one({floats({1}, {1}), floats({3}, {1, 2, 3})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] {
          OpCall{"PRelu"}.infer_one({info(DType::Float32, {2, 3}), info(DType::Float32, {2, 2})});
        }) == ErrorCode::InvalidOperator);
}

TEST_CASE("comparisons produce bool with broadcasting") {
  const Tensor a = tensor<std::int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor b = tensor<std::int32_t>({3}, {1, 5, 3});
  check_ints(OpCall{"Equal"}.run_one({a, b}), DType::Bool, {2, 3}, {1, 0, 1, 0, 1, 0});
  check_ints(OpCall{"Less"}.run_one({a, b}), DType::Bool, {2, 3}, {0, 1, 0, 0, 0, 0});
  check_ints(OpCall{"Greater"}.run_one({a, b}), DType::Bool, {2, 3}, {0, 0, 0, 1, 0, 1});
  check_ints(OpCall{"LessOrEqual"}.run_one({a, b}), DType::Bool, {2, 3}, {1, 1, 1, 0, 1, 0});
  check_ints(OpCall{"GreaterOrEqual"}.run_one({a, b}), DType::Bool, {2, 3}, {1, 0, 1, 1, 1, 1});
  check_ints(OpCall{"Equal"}.run_one({bools({2}, {true, false}), bools({1}, {false})}), DType::Bool, {2},
             {0, 1});
  check_ints(OpCall{"Less"}.run_one({floats({2}, {NAN, -1}), floats({2}, {0, -0.5f})}), DType::Bool, {2},
             {0, 1});
  check_ints(OpCall{"Equal"}.run_one({tensor<float16>({2}, {float16(0.5f), float16(1.0f)}),
                                      tensor<float16>({1}, {float16(0.5f)})}),
             DType::Bool, {2}, {1, 0});
  CHECK(thrown_code([] {
          OpCall{"Less"}.run_one({bools({1}, {true}), bools({1}, {false})});
        }) == ErrorCode::OperatorDtypeUnsupported);
}

TEST_CASE("And, Or, Xor broadcast; Not negates") {
  const Tensor a = bools({2, 2}, {true, true, false, false});
  const Tensor b = bools({2}, {true, false});
  check_ints(OpCall{"And"}.run_one({a, b}), DType::Bool, {2, 2}, {1, 0, 0, 0});
  check_ints(OpCall{"Or"}.run_one({a, b}), DType::Bool, {2, 2}, {1, 1, 1, 0});
  check_ints(OpCall{"Xor"}.run_one({a, b}), DType::Bool, {2, 2}, {0, 1, 1, 0});
  check_ints(OpCall{"Not"}.run_one({a}), DType::Bool, {2, 2}, {0, 0, 1, 1});
  CHECK(thrown_code([] {
          OpCall{"And"}.run_one({floats({1}, {1}), floats({1}, {1})});
        }) == ErrorCode::OperatorDtypeUnsupported);
}

TEST_CASE("BitShift on unsigned integers") {
  OpCall left{"BitShift"};
  left.attr("direction", std::string("LEFT"));
  OpCall right{"BitShift"};
  right.attr("direction", std::string("RIGHT"));
  check_ints(
      left.run_one({tensor<std::uint8_t>({4}, {16, 4, 1, 200}), tensor<std::uint8_t>({4}, {1, 2, 3, 1})}),
      DType::UInt8, {4}, {32, 16, 8, 144});
  check_ints(right.run_one({tensor<std::uint32_t>({3}, {16, 4, 1}), tensor<std::uint32_t>({1}, {2})}),
             DType::UInt32, {3}, {4, 1, 0});
  // shifting by the bit width or more clears every bit
  check_ints(left.run_one({tensor<std::uint64_t>({2}, {1, 1}), tensor<std::uint64_t>({2}, {63, 64})}),
             DType::UInt64, {2}, {std::int64_t(0x8000000000000000ull), 0});
  check_ints(right.run_one({tensor<std::uint16_t>({1}, {0xFFFF}), tensor<std::uint16_t>({1}, {16})}),
             DType::UInt16, {1}, {0});
  CHECK(thrown_code([] {
          OpCall{"BitShift"}
              .attr("direction", std::string("UP"))
              .run_one({tensor<std::uint8_t>({1}, {1}), tensor<std::uint8_t>({1}, {1})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] {
          left.run_one({tensor<std::int32_t>({1}, {1}), tensor<std::int32_t>({1}, {1})});
        }) == ErrorCode::OperatorDtypeUnsupported);
}

}  // namespace asc::test
