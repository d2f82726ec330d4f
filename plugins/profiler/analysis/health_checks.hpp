// The msprof health table (seed 2: "msprof 健康指标参考"): AI Core utilisation > 80%, DDR
// bandwidth utilisation < 90%, UB hit rate > 95%, kernel launch interval < 0.1 ms. Each is
// measured where the profile has the fields and reported "not measured" (saying what is
// missing) where it does not.
#pragma once

#include <vector>

#include "analysis/profile_facts.hpp"

namespace asc::profiler {

constexpr double kAiCoreUtilizationMin = 0.8;
constexpr double kDdrBandwidthUtilizationMax = 0.9;
constexpr double kUbHitRateMin = 0.95;
constexpr double kLaunchIntervalMaxUs = 100.0;

// Needs facts.tasks, facts.timeline, facts.total_us and facts.options filled in.
std::vector<HealthCheck> health_checks(const ProfileFacts& facts);

}  // namespace asc::profiler
