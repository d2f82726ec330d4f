// Seed: "当compute_time_ratio低于0.6时，说明模型存在明显的内存带宽瓶颈".
#include <algorithm>

#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

constexpr double kMinComputeRatio = 0.6;
constexpr std::size_t kBandwidthBoundListed = 3;

std::vector<Advice> check_bandwidth_bound(const ProfileFacts& facts) {
  if (facts.total_us <= 0 || facts.compute_time_ratio >= kMinComputeRatio) return {};
  std::vector<const OperatorFacts*> movers;
  for (const OperatorFacts& op : facts.operators)
    if (op.memory_copy_us > 0) movers.push_back(&op);
  std::stable_sort(movers.begin(), movers.end(), [](const OperatorFacts* a, const OperatorFacts* b) {
    return a->memory_copy_us > b->memory_copy_us;
  });
  std::string list;
  for (std::size_t i = 0; i < std::min(kBandwidthBoundListed, movers.size()); ++i)
    list += (i ? ", " : "") + operator_label(movers[i]->op_name, movers[i]->op_type) + " " +
            format_us(movers[i]->memory_copy_us);
  std::string basis;
  for (const auto& [name, count] : facts.memory_copy_basis)
    basis += (basis.empty() ? "" : ", ") + name + " " + std::to_string(count);
  return {
      {"bandwidth_bound", "warning",
       "compute_time_ratio is " + format_fixed(facts.compute_time_ratio, 3) + " = (total_time " +
           format_us(facts.total_us) + " - memory_copy_time " + format_us(facts.memory_copy_us) +
           ") / total_time, below " + format_fixed(kMinComputeRatio, 1) +
           ": the model is limited by memory bandwidth. Reduce the input size, merge adjacent small "
           "operators, "
           "and fuse operators (ATC --enable_scope_fusion) so intermediate results stay on chip. Most data "
           "moved by: " +
           list + " (memory copy basis, tasks: " + basis + ")"}};
}

}  // namespace

Rule bandwidth_bound_rule() {
  return {"bandwidth_bound",
          "compute_time_ratio = (total_time - memory_copy_time) / total_time is below 0.6",
          {{"min_compute_time_ratio", kMinComputeRatio, "below this the model is memory-bandwidth bound"}},
          check_bandwidth_bound};
}

}  // namespace asc::profiler
