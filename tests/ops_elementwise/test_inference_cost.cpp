// Shape/type inference with symbolic and unknown dimensions, and cost facts for known shapes.
#include <cstdint>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {

TEST_CASE("binary inference broadcasts symbolic dims") {
  const Dim batch = Dim::symbolic("N");
  const ValueInfo out =
      OpCall{"Add"}.infer_one({info(DType::Float32, {batch, 3, 1}), info(DType::Float32, {1, 4})});
  CHECK(out.dtype == DType::Float32);
  REQUIRE(out.shape);
  CHECK(*out.shape == std::vector<Dim>{batch, 3, 4});

  // same symbol on both sides stays; a symbol against 1 stays; two different symbols are unknown
  const ValueInfo same =
      OpCall{"Mul"}.infer_one({info(DType::Float32, {batch, 3}), info(DType::Float32, {batch, 1})});
  CHECK(*same.shape == std::vector<Dim>{batch, 3});
  const ValueInfo different =
      OpCall{"Sub"}.infer_one({info(DType::Float32, {batch}), info(DType::Float32, {Dim::symbolic("M")})});
  REQUIRE(different.shape);
  REQUIRE(different.shape->size() == 1);
  CHECK_FALSE((*different.shape)[0].is_static());
  CHECK((*different.shape)[0].symbol.empty());
  // a symbol against a static size > 1 takes the static size
  const ValueInfo sized = OpCall{"Add"}.infer_one({info(DType::Float32, {batch}), info(DType::Float32, {5})});
  CHECK(*sized.shape == std::vector<Dim>{5});

  ValueInfo unknown_rank;
  unknown_rank.dtype = DType::Float32;
  const ValueInfo unknown = OpCall{"Add"}.infer_one({unknown_rank, info(DType::Float32, {3})});
  CHECK(unknown.dtype == DType::Float32);
  CHECK_FALSE(unknown.shape.has_value());
}

TEST_CASE("inference refuses incompatible static shapes and mixed dtypes") {
  CHECK(thrown_code([] {
          OpCall{"Add"}.infer_one({info(DType::Float32, {2, 3}), info(DType::Float32, {4})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] {
          OpCall{"Equal"}.infer_one({info(DType::Int32, {2}), info(DType::Int64, {2})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] {
          OpCall{"Where"}.infer_one(
              {info(DType::Float32, {2}), info(DType::Float32, {2}), info(DType::Float32, {2})});
        }) == ErrorCode::InvalidOperator);
}

TEST_CASE("inference of output dtypes") {
  const Dim batch = Dim::symbolic("N");
  CHECK(OpCall{"Less"}.infer_one({info(DType::Float32, {batch, 3}), info(DType::Float32, {3})}).dtype ==
        DType::Bool);
  CHECK(OpCall{"IsNaN"}.infer_one({info(DType::Float16, {batch})}).dtype == DType::Bool);
  const ValueInfo relu = OpCall{"Relu"}.infer_one({info(DType::Float16, {batch, 7})});
  CHECK(relu.dtype == DType::Float16);
  CHECK(*relu.shape == std::vector<Dim>{batch, 7});
  const ValueInfo cast =
      OpCall{"Cast"}.attr("to", std::int64_t{10}).infer_one({info(DType::Float32, {batch, 2})});
  CHECK(cast.dtype == DType::Float16);
  CHECK(*cast.shape == std::vector<Dim>{batch, 2});
  const ValueInfo like =
      OpCall{"CastLike"}.infer_one({info(DType::Float32, {batch}), info(DType::Int8, {1})});
  CHECK(like.dtype == DType::Int8);
  CHECK(*like.shape == std::vector<Dim>{batch});
  const ValueInfo pow = OpCall{"Pow"}.infer_one({info(DType::Int32, {batch, 1}), info(DType::Float32, {4})});
  CHECK(pow.dtype == DType::Int32);
  CHECK(*pow.shape == std::vector<Dim>{batch, 4});
  const ValueInfo where = OpCall{"Where"}.infer_one(
      {info(DType::Bool, {batch, 1}), info(DType::Int64, {1, 3}), info(DType::Int64, {})});
  CHECK(where.dtype == DType::Int64);
  CHECK(*where.shape == std::vector<Dim>{batch, 3});
  const ValueInfo sum = OpCall{"Sum"}.infer_one(
      {info(DType::Float32, {2, 1}), info(DType::Float32, {3}), info(DType::Float32, {1, 1})});
  CHECK(*sum.shape == std::vector<Dim>{2, 3});
  const ValueInfo prelu =
      OpCall{"PRelu"}.infer_one({info(DType::Float32, {batch, 3, 8, 8}), info(DType::Float32, {3, 1, 1})});
  CHECK(*prelu.shape == std::vector<Dim>{batch, 3, 8, 8});

  OpCall dropout{"Dropout", 13};
  dropout.outputs = 2;
  const auto dropped = dropout.infer({info(DType::Float32, {batch, 4})});
  CHECK(dropped[0].dtype == DType::Float32);
  CHECK(dropped[1].dtype == DType::Bool);
  CHECK(*dropped[1].shape == std::vector<Dim>{batch, 4});
}

TEST_CASE("cost facts for known shapes") {
  // Add [1,64,56,56] + [1,64,56,56] float32: one flop per element
  const std::vector<Dim> feature{1, 64, 56, 56};
  const std::int64_t elements = 64 * 56 * 56;
  const CostFacts add = OpCall{"Add"}.cost({info(DType::Float32, feature), info(DType::Float32, feature)},
                                           {info(DType::Float32, feature)});
  CHECK(add.flops == doctest::Approx(static_cast<double>(elements)));
  CHECK(add.bytes_read == 2 * elements * 4);
  CHECK(add.bytes_written == elements * 4);
  CHECK(add.unit == ComputeUnit::Vector);

  // broadcast bias: reads what is stored, not the broadcast size
  const CostFacts bias = OpCall{"Add"}.cost({info(DType::Float32, {2, 3}), info(DType::Float32, {3})},
                                            {info(DType::Float32, {2, 3})});
  CHECK(bias.flops == doctest::Approx(6));
  CHECK(bias.bytes_read == 36);
  CHECK(bias.bytes_written == 24);

  // Exp on float16 [4,8]: 8 flops per element (transcendental estimate)
  const CostFacts exp = OpCall{"Exp"}.cost({info(DType::Float16, {4, 8})}, {info(DType::Float16, {4, 8})});
  CHECK(exp.flops == doctest::Approx(32 * 8));
  CHECK(exp.bytes_read == 64);
  CHECK(exp.bytes_written == 64);

  // Div: 4 flops per element; comparison writes one byte per bool
  CHECK(OpCall{"Div"}
            .cost({info(DType::Float32, {10}), info(DType::Float32, {10})}, {info(DType::Float32, {10})})
            .flops == doctest::Approx(40));
  const CostFacts less = OpCall{"Less"}.cost({info(DType::Float32, {10}), info(DType::Float32, {10})},
                                             {info(DType::Bool, {10})});
  CHECK(less.bytes_written == 10);

  // variadic: one op per element for each input after the first; Mean adds the scaling
  const std::vector<ValueInfo> three(3, info(DType::Float32, {10}));
  CHECK(OpCall{"Sum"}.cost(three, {info(DType::Float32, {10})}).flops == doctest::Approx(20));
  CHECK(OpCall{"Mean"}.cost(three, {info(DType::Float32, {10})}).flops == doctest::Approx(30));

  // metadata-only at inference
  const CostFacts identity =
      OpCall{"Identity"}.cost({info(DType::Float32, feature)}, {info(DType::Float32, feature)});
  CHECK(identity.unit == ComputeUnit::None);
  CHECK(identity.bytes_read == 0);
  CHECK(OpCall{"Dropout", 13}.cost({info(DType::Float32, feature)}, {info(DType::Float32, feature)}).unit ==
        ComputeUnit::None);

  // symbolic shapes have no static size: no cost counted
  CHECK(OpCall{"Relu"}
            .cost({info(DType::Float32, {Dim::symbolic("N")})}, {info(DType::Float32, {Dim::symbolic("N")})})
            .flops == 0);
}

}  // namespace asc::test
