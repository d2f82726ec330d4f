#include "latency_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace asc::bench {
namespace {

// numpy.percentile's default ("linear"): the value at rank q/100 * (n - 1) of the sorted list,
// interpolated between its neighbours.
double percentile(const std::vector<double>& sorted, double q) {
  const double rank = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

}  // namespace

LatencyStats latency_stats(std::vector<double> values_ms) {
  LatencyStats stats;
  stats.count = values_ms.size();
  if (values_ms.empty()) return stats;
  const double sum = std::accumulate(values_ms.begin(), values_ms.end(), 0.0);
  stats.mean = sum / static_cast<double>(values_ms.size());
  std::sort(values_ms.begin(), values_ms.end());
  stats.min = values_ms.front();
  stats.max = values_ms.back();
  stats.median = percentile(values_ms, 50);
  stats.percentile99 = percentile(values_ms, 99);
  return stats;
}

}  // namespace asc::bench
