// ais_bench's statistics of a list of latencies (numpy min, max, mean, median and
// percentile(list, 99) with linear interpolation), in milliseconds.
#pragma once

#include <cstddef>
#include <vector>

namespace asc::bench {

struct LatencyStats {
  double min = 0, max = 0, mean = 0, median = 0, percentile99 = 0;
  std::size_t count = 0;
};

// All zero for an empty list, as ais_bench reports a list it never filled.
LatencyStats latency_stats(std::vector<double> values_ms);

}  // namespace asc::bench
