// numpy matmul shape rules shared by MatMul and MatMulInteger: 1-D operands are promoted to
// matrices (and the promoted dimension dropped again), leading batch dimensions broadcast.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

struct MatMulShape {
  Shape output;
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  // Per output matrix, in row-major order over the broadcast batch dims: which matrix of A and
  // of B (counted in whole matrices) it multiplies.
  std::vector<std::int64_t> a_matrix;
  std::vector<std::int64_t> b_matrix;

  std::int64_t batch() const noexcept { return static_cast<std::int64_t>(a_matrix.size()); }
};

// Throws InvalidOperator naming `node` for scalars, mismatched inner dimensions or batch
// dimensions that do not broadcast.
MatMulShape plan_matmul(const Shape& a, const Shape& b, const Node& node);

// The output dims, or std::nullopt when either rank is unknown.
std::optional<std::vector<Dim>> infer_matmul_dims(const ValueInfo& a, const ValueInfo& b, const Node& node);

// Cube cost of a matmul-shaped node (inputs 0 and 1 are the matrices): 2*M*N*K per output
// matrix, every input read and every output written once.
CostFacts matmul_cost(const CostContext& context);

}  // namespace asc::ops
