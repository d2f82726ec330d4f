// msprof's sample-based AI Core collection, on the simulated timeline.
//
// A real PMU in sample-based mode reads each core's counters once per period (1 / --aic-freq)
// instead of once per task. Here the collection covers the simulated device timeline from the
// first task's start to the last task's end (every inference of the run, back to back); it is
// cut into windows of one sampling period, the last one possibly shorter: N = ceil(duration /
// period) samples. A sample holds, per core, the fraction of its window the core was executing
// (msprof's "utilization(%)").
//
// Where a task's blocks run: blocks are dealt over the first min(block dim, cores) cores of its
// kind (AI_CORE tasks on the cube cores, AI_VECTOR_CORE tasks on the vector cores of a split
// SoC; every AI Core task on the cores of a coupled SoC), the block count of each core scaling
// the task's per-core busy and pipe times (aicore_time and *_time(us), which are the busiest
// core's). Inside the task's [start, start + duration) a core's busy time is spread evenly, so a
// window that cuts a task gets its share of it.
//
// The per-core summary (ai_core_utilization_*.csv) has msprof's ratios over the whole collection:
// each pipe's busy cycles over the cycles the core was executing (msprof: event / task_cyc).
#pragma once

#include "asc/sdk/backend.hpp"
#include "asc/sdk/profiling.hpp"
#include <map>
#include <string>
#include <vector>


namespace asc::msprof {

struct CoreActivity {
  double busy_us = 0;                   // executing a task (task_cyc)
  std::map<std::string, double> pipes;  // "mac", "vec", ... -> busy us
};

struct UtilizationSample {
  double start_us = 0, end_us = 0;
  std::vector<double> utilization_percent;  // per core
};

struct CoreGroupSampling {
  std::vector<std::string> pipes;      // the pipes this kind of core reports, in msprof's order
  std::vector<CoreActivity> cores;     // the whole collection, per core
  std::vector<UtilizationSample> samples;
};

struct AiCoreSampling {
  double start_us = 0, end_us = 0;
  double period_us = 0;
  CoreGroupSampling ai_cores;      // the AI Cores (cube cores on a split SoC)
  CoreGroupSampling vector_cores;  // split SoCs only: the AI Vector Cores
};

// `events`: every task of the collection (copies included: they bound the collection but run on
// no core). Throws EE9001 for a period <= 0.
AiCoreSampling sample_ai_cores(const std::vector<ProfileEvent>& events, const DeviceInfo& device, double period_us);

}  // namespace asc::msprof
