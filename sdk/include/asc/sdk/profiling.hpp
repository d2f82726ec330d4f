// Profiling events that backends emit and profilers analyse. Field names follow msprof's
// op_summary where one exists (times in microseconds of device time).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace asc {

struct ProfileEvent {
  std::string op_name;                  // task / kernel name
  std::string op_type;
  std::vector<std::string> provenance;  // original model nodes behind this task
  std::string task_type = "AI_CORE";    // AI_CORE, AI_VECTOR_CORE, AI_CPU, MEMCPY, ...
  int stream_id = 0;
  int task_id = 0;
  int block_dim = 1;
  double start_us = 0;
  double duration_us = 0;
  double wait_us = 0;
  double memory_copy_us = 0;
  std::string input_shapes;   // msprof spelling: "1,3,224,224;64,3,7,7"
  std::string input_dtypes;   // "FLOAT16;FLOAT16"
  std::string input_formats;  // "NC1HWC0;FRACTAL_Z"
  std::string output_shapes;
  std::string output_dtypes;
  std::string output_formats;
  // Pipe and memory metrics by msprof column name: "aic_mac_ratio", "aic_mte2_time(us)", ...
  std::map<std::string, double> metrics;
};

// Receives events as a backend produces them. Borrowed by the backend; must outlive the run.
class ProfileSink {
 public:
  virtual ~ProfileSink() = default;
  virtual void record(const ProfileEvent& event) = 0;
};

// A whole profile, as a profiler analyses it.
struct ProfileTrace {
  std::string model_name;
  std::string soc_version;
  std::vector<ProfileEvent> events;
};

}  // namespace asc
