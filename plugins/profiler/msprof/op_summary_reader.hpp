// op_summary_*.csv -> profile events. Both header generations are read: `Block Dim`/`Mix Block
// Dim` (CANN <= 8.x) and `Block Num`/`Mix Block Num` (msprof from 2026), with PMU columns
// `aic_`/`aiv_`-prefixed (split-core products) or unprefixed (310P, 910). Every column outside
// the base set whose value is a number becomes ProfileEvent::metrics[<column name>].
#pragma once

#include <asc/sdk/profiling.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "msprof/csv_table.hpp"

namespace asc::profiler {

struct OpSummaryRows {
  std::vector<ProfileEvent> events;
  std::vector<bool> has_start;   // per event: its Task Start Time(us) was a number
  std::string block_column;      // the spelling seen: "Block Dim", "Block Num" or "" (absent)
  std::string pmu_naming;        // "aic_/aiv_ prefixed", "unprefixed" or "none"
  std::string model_name;        // from a "Model Name" column, when present
  std::size_t skipped_rows = 0;  // rows whose Task Duration(us) is N/A
};

// Throws EE4004 naming file:line for a missing required column (Op Name, Task Duration(us)) or a
// value in a numeric base column that is neither a number nor N/A.
OpSummaryRows read_op_summary(const CsvTable& table);

}  // namespace asc::profiler
