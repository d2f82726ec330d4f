// Seed: "输入批次大小（batch size）不为16的倍数时也会产生类似问题，因为Cube单元的mini-batch维度以16为
// 粒度进行展开". Convolutions are judged by N of their data input, matrix products by M (the rows
// of their output), the dimension the Cube unrolls in blocks of 16.
#include <map>

#include "analysis/op_categories.hpp"
#include "analysis/operand_layout.hpp"
#include "analysis/shape_text.hpp"
#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

constexpr std::int64_t kBlock = 16;

std::vector<Advice> check_cube_batch_alignment(const ProfileFacts& facts) {
  std::map<std::int64_t, std::size_t> by_size;  // batch or M -> operators
  std::map<std::string, std::size_t> by_type;
  double affected_us = 0;
  for (const OperatorFacts& op : facts.operators) {
    std::optional<std::int64_t> size;
    if (is_conv_type(op.op_type))
      size = conv_batch(*op.first);
    else if (is_matmul_type(op.op_type))
      if (const auto dims = matmul_dims(*op.first)) size = dims->m;
    if (!size || *size <= 0 || *size % kBlock == 0) continue;
    ++by_size[*size];
    ++by_type[op.op_type];
    affected_us += op.device_us;
  }
  if (by_size.empty()) return {};
  std::string sizes, types;
  std::size_t count = 0;
  for (const auto& [size, n] : by_size) {
    const double waste = 1.0 - static_cast<double>(size) / static_cast<double>(round_up(size, kBlock));
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(size) + " (" + std::to_string(n) + " operators, " +
             format_percent(waste) + " of the last 16-block padded)";
    count += n;
  }
  for (const auto& [type, n] : by_type)
    types += (types.empty() ? "" : ", ") + type + " x" + std::to_string(n);
  return {
      {"cube_batch_alignment", "info",
       std::to_string(count) + " Cube operators (" + types + "; " + time_and_share(affected_us, facts) +
           ") run with a batch (convolution N) or M (matrix rows) that is not a multiple of 16: " + sizes +
           ". Where throughput matters more than latency, use a batch size that is a multiple of 16 (ATC "
           "--input_shape or --dynamic_batch_size)"}};
}

}  // namespace

Rule cube_batch_alignment_rule() {
  return {
      "cube_batch_alignment",
      "a convolution's batch N or a matrix product's M is not a multiple of 16 (the Cube's mini-batch block)",
      {{"cube_block", static_cast<double>(kBlock), "block of the Cube's M dimension"}},
      check_cube_batch_alignment};
}

}  // namespace asc::profiler
