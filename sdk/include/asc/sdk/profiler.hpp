// Profiler plugins: analyse a profile and say where the time goes and what to change.
#pragma once

#include <string>
#include <vector>

#include "asc/sdk/profiling.hpp"

namespace asc {

struct Advice {
  std::string rule;      // rule id, e.g. "bandwidth_bound"
  std::string severity;  // "info", "warning", "critical"
  std::string message;   // cites the numbers it saw
};

struct ProfileAnalysis {
  std::string json_report;  // the full report as a JSON document
  std::vector<Advice> advice;
};

class Profiler {
 public:
  virtual ~Profiler() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual ProfileAnalysis analyse(const ProfileTrace& trace) const = 0;
};

}  // namespace asc
