#include "analysis/pmu_metrics.hpp"

#include <algorithm>
#include <string>

namespace asc::profiler {
namespace {

std::vector<std::string> spellings(std::string_view name) {
  const std::string base(name);
  return {"aic_" + base, "aiv_" + base, base};
}

template <class Combine>
std::optional<double> combine_metric(const ProfileEvent& event, const std::vector<std::string>& keys,
                                     Combine combine) {
  std::optional<double> result;
  for (const std::string& key : keys) {
    const auto it = event.metrics.find(key);
    if (it == event.metrics.end()) continue;
    result = result ? combine(*result, it->second) : it->second;
  }
  return result;
}

double larger(double a, double b) {
  return std::max(a, b);
}
double plus(double a, double b) {
  return a + b;
}

}  // namespace

const std::vector<std::string_view>& pipe_names() {
  static const std::vector<std::string_view> names{"mac", "vec", "scalar", "mte1", "mte2", "mte3", "fixpipe"};
  return names;
}

std::optional<double> pipe_ratio(const ProfileEvent& event, std::string_view pipe) {
  auto keys = spellings(std::string(pipe) + "_ratio");
  keys.push_back(std::string(pipe) + "_exe_ratio");
  return combine_metric(event, keys, larger);
}

std::optional<double> pipe_time_us(const ProfileEvent& event, std::string_view pipe) {
  auto keys = spellings(std::string(pipe) + "_time(us)");
  keys.push_back(std::string(pipe) + "_exe_time(us)");
  return combine_metric(event, keys, larger);
}

std::optional<double> summed_metric(const ProfileEvent& event, std::string_view name) {
  return combine_metric(event, spellings(name), plus);
}

std::optional<double> largest_metric(const ProfileEvent& event, std::string_view name) {
  return combine_metric(event, spellings(name), larger);
}

bool has_pipe_data(const ProfileEvent& event) {
  for (const std::string_view pipe : pipe_names())
    if (pipe_ratio(event, pipe) || pipe_time_us(event, pipe)) return true;
  return false;
}

}  // namespace asc::profiler
