// The modelTrade JSON report. The seed's schema comes first and exactly as the seed gives it —
// model_name, soc_version, total_time (us), op_summary [{op_name, op_type, device_time (us),
// memory_copy_time (us), ratio}] sorted by device_time, largest first — followed by modelTrade's
// own sections and a "fields" section that documents every field.
#pragma once

#include <asc/sdk/profiler.hpp>
#include <nlohmann/json.hpp>
#include <vector>

#include "analysis/profile_facts.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {

struct RuleOutcome {
  const Rule* rule;
  std::vector<Advice> advice;
};

// `source` (where the profile came from) is included when not null.
nlohmann::ordered_json build_report(const ProfileFacts& facts, const std::vector<RuleOutcome>& outcomes,
                                    const nlohmann::ordered_json& source);

// Field path -> meaning, for the report's "fields" section ("op_summary[].ratio": "...").
nlohmann::ordered_json report_field_docs();

}  // namespace asc::profiler
