// Seed: "若数据搬运耗时占比超过40%，优先检查模型是否存在大量Reshape、Transpose、Slice等内存操作算子".

#include "analysis/op_categories.hpp"
#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

constexpr double kMaxShare = 0.4;
constexpr std::size_t kListedOperators = 8;

std::vector<Advice> check_data_movement(const ProfileFacts& facts) {
  if (facts.total_us <= 0) return {};
  double moving_us = 0;
  std::vector<const TypeFacts*> types;
  for (const TypeFacts& type : facts.types)
    if (is_data_movement_type(type.op_type)) {
      moving_us += type.total_us;
      types.push_back(&type);
    }
  const double share = moving_us / facts.total_us;
  if (share <= kMaxShare) return {};
  std::string type_list;
  for (const TypeFacts* type : types)
    type_list += (type_list.empty() ? "" : ", ") + type->op_type + " x" + std::to_string(type->count) + " " +
                 format_us(type->total_us);
  std::string op_list;
  std::size_t listed = 0;
  for (const OperatorFacts& op : facts.operators)
    if (is_data_movement_type(op.op_type) && listed++ < kListedOperators)
      op_list += (op_list.empty() ? "" : ", ") + operator_label(op.op_name, op.op_type) + " " +
                 format_us(op.device_us);
  return {
      {"data_movement", "warning",
       "data-movement operators take " + format_percent(share) + " of device time (" + format_us(moving_us) +
           " of " + format_us(facts.total_us) + "), more than " + format_percent(kMaxShare) + ": " +
           type_list + ". Largest: " + op_list +
           ". They only rearrange data: avoid needless reshapes/transposes in the model, or fuse them into "
           "neighbouring compute operators (ATC --enable_scope_fusion)"}};
}

}  // namespace

Rule data_movement_rule() {
  return {
      "data_movement",
      "operators that only move data (Reshape, Transpose, Slice, Concat, Gather, Cast, TransData, Split, "
      "Pad, "
      "...) take more than 40% of device time",
      {{"max_share", kMaxShare, "share of total_time in data-movement operators above which the rule fires"}},
      check_data_movement};
}

}  // namespace asc::profiler
