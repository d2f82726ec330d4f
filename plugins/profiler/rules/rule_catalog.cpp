#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {

const std::vector<Rule>& rule_catalog() {
  static const std::vector<Rule> rules{
      top_operators_rule(),          bandwidth_bound_rule(),      data_movement_rule(),
      conv_channel_alignment_rule(), cube_batch_alignment_rule(), type_outlier_rule(),
      memory_bound_pipes_rule(),     small_matmul_rule(),         health_table_rule()};
  return rules;
}

std::string operator_label(const std::string& op_name, const std::string& op_type) {
  return op_name + " (" + op_type + ")";
}

std::string time_and_share(double us, const ProfileFacts& facts) {
  return format_us(us) + " = " + format_percent(facts.total_us > 0 ? us / facts.total_us : 0) +
         " of device time";
}

}  // namespace asc::profiler
