// An analysis rule: looks at the profile's facts and says what to change, citing the numbers it
// saw. Each rule lives in its own file; rule_catalog.cpp lists them in report order.
#pragma once

#include <asc/sdk/profiler.hpp>
#include <functional>
#include <string>
#include <vector>

#include "analysis/profile_facts.hpp"

namespace asc::profiler {

struct RuleThreshold {
  std::string name;
  double value = 0;
  std::string meaning;
};

struct Rule {
  std::string id;
  std::string description;  // what it checks and when it fires
  std::vector<RuleThreshold> thresholds;
  std::function<std::vector<Advice>(const ProfileFacts&)> check;  // empty when it does not fire
};

const std::vector<Rule>& rule_catalog();

// "conv1 (Conv2D)"
std::string operator_label(const std::string& op_name, const std::string& op_type);
// "812.00 us = 15.4% of device time"
std::string time_and_share(double us, const ProfileFacts& facts);

Rule top_operators_rule();
Rule bandwidth_bound_rule();
Rule data_movement_rule();
Rule conv_channel_alignment_rule();
Rule cube_batch_alignment_rule();
Rule type_outlier_rule();
Rule memory_bound_pipes_rule();
Rule small_matmul_rule();
Rule health_table_rule();

}  // namespace asc::profiler
