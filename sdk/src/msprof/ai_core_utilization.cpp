#include "asc/sdk/msprof/ai_core_utilization.hpp"

#include <algorithm>
#include <optional>

#include "asc/sdk/msprof/number_text.hpp"

namespace asc::msprof {
namespace {

const std::vector<std::string> kCoupledColumns = {"vec_ratio",  "mac_ratio",  "scalar_ratio",     "mte1_ratio",
                                                  "mte2_ratio", "mte3_ratio", "icache_miss_rate", "memory_bound"};
const std::vector<std::string> kSplitCubeColumns = {"mac_ratio",  "scalar_ratio",     "mte1_ratio",
                                                    "mte2_ratio", "icache_miss_rate", "fixpipe_ratio"};

double pipe_ratio(const CoreActivity& core, const std::string& pipe) {
  const auto found = core.pipes.find(pipe);
  return found == core.pipes.end() || core.busy_us <= 0 ? 0 : found->second / core.busy_us;
}

// The value of `column` for one core; nullopt = not measured (N/A).
std::optional<double> value_of(const CoreActivity& core, const std::string& column) {
  if (column == "icache_miss_rate") return std::nullopt;
  if (column == "memory_bound") {
    const double compute = std::max(pipe_ratio(core, "mac"), pipe_ratio(core, "vec"));
    return compute > 0 ? pipe_ratio(core, "mte2") / compute : 0;
  }
  return pipe_ratio(core, column.substr(0, column.size() - std::string("_ratio").size()));
}

}  // namespace

std::vector<std::string> ai_core_utilization_columns(bool split, bool vector_cores) {
  std::vector<std::string> columns = {"Device_id", "Core ID"};
  const auto& metrics = split && !vector_cores ? kSplitCubeColumns : kCoupledColumns;
  columns.insert(columns.end(), metrics.begin(), metrics.end());
  return columns;
}

std::string ai_core_utilization_csv(const CoreGroupSampling& group, bool split, bool vector_cores) {
  const std::vector<std::string> columns = ai_core_utilization_columns(split, vector_cores);
  std::string text = csv_line(columns);
  std::vector<double> sums(columns.size(), 0);
  std::vector<bool> measured(columns.size(), true);
  for (std::size_t core = 0; core < group.cores.size(); ++core) {
    std::vector<std::string> row = {"0", "Core" + std::to_string(core)};
    for (std::size_t c = 2; c < columns.size(); ++c) {
      const std::optional<double> value = value_of(group.cores[core], columns[c]);
      row.push_back(value ? msprof_number(*value) : "N/A");
      if (value) sums[c] += *value;
      measured[c] = measured[c] && value.has_value();
    }
    text += csv_line(row);
  }
  std::vector<std::string> average = {"0", "Average"};
  const double cores = static_cast<double>(std::max<std::size_t>(1, group.cores.size()));
  for (std::size_t c = 2; c < columns.size(); ++c)
    average.push_back(measured[c] ? msprof_number(sums[c] / cores) : "N/A");
  return text + csv_line(average);
}

}  // namespace asc::msprof
