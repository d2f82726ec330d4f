// Seed: "检查是否存在大量小尺寸的矩阵乘法（如attention计算中的QKV投影）。小尺寸矩阵乘法无法充分利用
// Cube单元的并行计算能力". A matrix product is small when batch*M*N*K is below 64^3 multiply-
// accumulates: 64 of the Cube's 16x16x16 steps, a few per AI Core, too little to hide its launch.
#include "analysis/op_categories.hpp"
#include "analysis/operand_layout.hpp"
#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

constexpr std::int64_t kSmallWork = 64 * 64 * 64;
constexpr std::size_t kMinCount = 10;
constexpr std::size_t kSmallMatmulListed = 5;

std::vector<Advice> check_small_matmul(const ProfileFacts& facts) {
  std::vector<std::pair<const OperatorFacts*, MatMulDims>> small;
  double small_us = 0;
  for (const OperatorFacts& op : facts.operators) {
    if (!is_matmul_type(op.op_type)) continue;
    const auto dims = matmul_dims(*op.first);
    if (!dims || dims->work() >= kSmallWork) continue;
    small.emplace_back(&op, *dims);
    small_us += op.device_us;
  }
  if (small.size() < kMinCount) return {};
  std::string list;
  for (std::size_t i = 0; i < kSmallMatmulListed; ++i)
    list += (i ? ", " : "") + operator_label(small[i].first->op_name, small[i].first->op_type) + " [" +
            small[i].second.text() + "] " + format_us(small[i].first->device_us);
  return {{"small_matmul", "warning",
           std::to_string(small.size()) + " matrix-product operators each do fewer than " +
               std::to_string(kSmallWork) + " multiply-accumulates (batch*M*N*K < 64^3) and take " +
               time_and_share(small_us, facts) + "; largest: " + list +
               ". Small matrix products cannot fill the Cube unit: fuse them into larger ones (e.g. the Q, K "
               "and V "
               "projections into one MatMul), or tune the operators (the seed's --enable_op_tuning; AOE op "
               "tuning "
               "on CANN)"}};
}

}  // namespace

Rule small_matmul_rule() {
  return {"small_matmul",
          "at least 10 MatMul/BatchMatMul/Gemm operators each do fewer than 64^3 multiply-accumulates "
          "(batch*M*N*K from their shapes)",
          {{"max_work", static_cast<double>(kSmallWork), "batch*M*N*K below which a matrix product is small"},
           {"min_count", static_cast<double>(kMinCount), "small matrix products needed to fire"}},
          check_small_matmul};
}

}  // namespace asc::profiler
