// msprof's sample-based summaries, from an AiCoreSampling (ai_core_sampling.hpp):
//   ai_core_utilization_*.csv         the AI Cores (the cube cores of a split SoC)
//   ai_vector_core_utilization_*.csv  the AI Vector Cores of a split SoC
// One row per core ("Core0", "Core1", ...) and an "Average" row (the mean over the cores), as
// msprof's ai_core_report.py assembles them; the columns are the PipeUtilization fields msprof
// documents for the product: coupled cores vec, mac, scalar, mte1, mte2, mte3 ratios,
// icache_miss_rate, memory_bound; split cube cores mac, scalar, mte1, mte2, icache_miss_rate,
// fixpipe; split vector cores as coupled ones. icache_miss_rate is not modelled (N/A).
#pragma once

#include <string>
#include <vector>

#include "asc/sdk/msprof/ai_core_sampling.hpp"

namespace asc::msprof {

std::vector<std::string> ai_core_utilization_columns(bool split, bool vector_cores);
std::string ai_core_utilization_csv(const CoreGroupSampling& group, bool split, bool vector_cores);

}  // namespace asc::msprof
