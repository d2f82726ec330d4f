#include "asc/sdk/msprof/profile_writer.hpp"

#include <algorithm>
#include "asc/sdk/error.hpp"
#include "asc/sdk/io.hpp"
#include "asc/sdk/log.hpp"
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <random>

#include "asc/sdk/msprof/ai_core_sampling.hpp"
#include "asc/sdk/msprof/ai_core_utilization.hpp"
#include "asc/sdk/msprof/number_text.hpp"
#include "asc/sdk/msprof/timeline.hpp"
#include "asc/sdk/backend/output_paths.hpp"
#include "asc/sdk/msprof/memcpy_task.hpp"

namespace asc::msprof {
namespace {

const std::vector<std::string> kBaseColumns = {
    "Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
    "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Dim", "Mix Block Dim", "HF32 Eligible",
    "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes", "Output Data Types", "Output Formats",
    "Context ID"};

const std::vector<std::string> kSplitSummaryColumns = {
    "aicore_time(us)",      "aic_total_cycles",    "aic_mac_time(us)",     "aic_mac_ratio",
    "aic_scalar_time(us)",  "aic_scalar_ratio",    "aic_mte1_time(us)",    "aic_mte1_ratio",
    "aic_mte2_time(us)",    "aic_mte2_ratio",      "aic_fixpipe_time(us)", "aic_fixpipe_ratio",
    "aic_icache_miss_rate", "aiv_time(us)",        "aiv_total_cycles",     "aiv_vec_time(us)",
    "aiv_vec_ratio",        "aiv_scalar_time(us)", "aiv_scalar_ratio",     "aiv_mte2_time(us)",
    "aiv_mte2_ratio",       "aiv_mte3_time(us)",   "aiv_mte3_ratio",       "aiv_icache_miss_rate",
    "memory_bound",         "cube_utilization(%)"};

const std::vector<std::string> kCoupledSummaryColumns = {
    "aicore_time(us)", "total_cycles", "vec_time(us)",     "vec_ratio",    "mac_time(us)",       "mac_ratio",
    "scalar_time(us)", "scalar_ratio", "mte1_time(us)",    "mte1_ratio",   "mte2_time(us)",      "mte2_ratio",
    "mte3_time(us)",   "mte3_ratio",   "icache_miss_rate", "memory_bound", "cube_utilization(%)"};

std::vector<ProfileEvent> operators_of(const std::vector<ProfileEvent>& events) {
  std::vector<ProfileEvent> operators;
  for (const ProfileEvent& e : events)
    if (!is_host_copy(e)) operators.push_back(e);
  return operators;
}

std::string op_summary(const std::vector<ProfileEvent>& operators, const DeviceInfo& device,
                       const CollectionOptions& options) {
  const bool pmu = options.per_task_pmu();
  const bool l0 = options.task_time == TaskTimeLevel::L0;
  const std::string na = "N/A";
  std::string text = csv_line(op_summary_columns(device, pmu));
  for (const ProfileEvent& e : operators) {
    std::vector<std::string> row = {"0", "1", std::to_string(e.task_id), std::to_string(e.stream_id), e.op_name,
                                    l0 ? na : e.op_type, l0 ? na : "static", l0 ? na : e.task_type,
                                    msprof_number(e.start_us), msprof_number(e.duration_us), msprof_number(e.wait_us),
                                    l0 ? "0" : std::to_string(e.block_dim), l0 ? na : "0", l0 ? na : "NO",
                                    l0 ? na : e.input_shapes, l0 ? na : e.input_dtypes, l0 ? na : e.input_formats,
                                    l0 ? na : e.output_shapes, l0 ? na : e.output_dtypes, l0 ? na : e.output_formats,
                                    na};
    if (pmu)
      for (const std::string& column : pmu_columns(device)) {
        const auto found = e.metrics.find(column);
        row.push_back(found == e.metrics.end() ? na : msprof_number(found->second));
      }
    text += csv_line(row);
  }
  return text;
}

std::string op_statistic(const std::vector<ProfileEvent>& operators, const CollectionOptions& options) {
  struct Stat {
    int count = 0;
    double total = 0, min = 0, max = 0;
  };
  const bool l0 = options.task_time == TaskTimeLevel::L0;
  std::map<std::pair<std::string, std::string>, Stat> stats;
  double all = 0;
  for (const ProfileEvent& e : operators) {
    Stat& s = stats[l0 ? std::pair<std::string, std::string>{"N/A", "N/A"} : std::pair{e.op_type, e.task_type}];
    s.min = s.count == 0 ? e.duration_us : std::min(s.min, e.duration_us);
    s.max = std::max(s.max, e.duration_us);
    s.total += e.duration_us;
    ++s.count;
    all += e.duration_us;
  }
  std::vector<std::pair<std::pair<std::string, std::string>, Stat>> rows(stats.begin(), stats.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
  std::string text = csv_line({"Device_id", "OP Type", "Core Type", "Count", "Total Time(us)", "Avg Time(us)",
                               "Min Time(us)", "Max Time(us)", "Ratio(%)"});
  for (const auto& [key, s] : rows)
    text += csv_line({"0", key.first, key.second, std::to_string(s.count), msprof_number(s.total),
                      msprof_number(s.total / s.count), msprof_number(s.min), msprof_number(s.max),
                      msprof_number(all > 0 ? 100.0 * s.total / all : 0)});
  return text;
}

// msprof's kernel_type: the engine of a kernel; a copy keeps its runtime task type, MEMCPY_ASYNC.
std::string kernel_type(const ProfileEvent& e) {
  if (is_host_copy(e)) return kMemcpyTaskType;
  return e.task_type == "AI_CPU" ? "KERNEL_AICPU" : "KERNEL_AICORE";
}

// msprof's task_time: one row per task, copies included, in order of start.
std::string task_time(std::vector<ProfileEvent> events) {
  std::stable_sort(events.begin(), events.end(),
                   [](const ProfileEvent& a, const ProfileEvent& b) { return a.start_us < b.start_us; });
  std::string text = csv_line({"Device_id", "kernel_name", "kernel_type", "stream_id", "task_id", "task_time(us)",
                               "task_start(us)", "task_stop(us)"});
  for (const ProfileEvent& e : events)
    text += csv_line({"0", e.op_name, kernel_type(e), std::to_string(e.stream_id), std::to_string(e.task_id),
                      msprof_number(e.duration_us), msprof_number(e.start_us),
                      msprof_number(e.start_us + e.duration_us)});
  return text;
}

struct Stamp {
  std::string directory;  // yyyymmddhhmmssmmm
  std::string files;      // yyyymmddhhmmss
};

Stamp now_stamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y%m%d%H%M%S", &utc);
  char ms[8];
  std::snprintf(ms, sizeof ms, "%03d", static_cast<int>(millis));
  return {std::string(buffer) + ms, buffer};
}

std::string random_letters() {
  std::random_device device;
  std::uniform_int_distribution<int> letter(0, 25);
  std::string text;
  for (int i = 0; i < 16; ++i) text += static_cast<char>('A' + letter(device));
  return text;
}

AiCoreSampling sampled(const std::vector<ProfileEvent>& events, const DeviceInfo& device, const CollectionOptions& options) {
  const double period_us = options.sampling_interval_ms * 1000.0;
  AiCoreSampling sampling = sample_ai_cores(events, device, period_us);
  const double duration = sampling.end_us - sampling.start_us;
  if (duration < period_us) {
    char message[256];
    std::snprintf(message, sizeof message,
                  "msprof sample-based: the simulated run lasted %.1f us, less than one %d ms sampling period: its "
                  "one sample covers all of it (a longer --loop gives more samples)",
                  duration, options.sampling_interval_ms);
    log_warning(message);
  }
  return sampling;
}

// The files of mindstudio_profiler_output/, named <kind>_<stamp>.<extension>.
void write_profile_files(const CollectionOptions& options, const std::vector<ProfileEvent>& events,
                         const DeviceInfo& device, const std::filesystem::path& output, const std::string& stamp) {
  const auto file = [&](const std::string& kind, const std::string& extension) {
    return output / (kind + "_" + stamp + extension);
  };
  if (options.task_time != TaskTimeLevel::Off) {
    const std::vector<ProfileEvent> operators = operators_of(events);
    write_text_atomically(file("op_summary", ".csv"), op_summary(operators, device, options));
    write_text_atomically(file("op_statistic", ".csv"), op_statistic(operators, options));
    write_text_atomically(file("task_time", ".csv"), task_time(events));
  }
  std::optional<AiCoreSampling> sampling;
  if (options.sampled()) {
    sampling = sampled(events, device, options);
    write_text_atomically(file("ai_core_utilization", ".csv"), ai_core_utilization_csv(sampling->ai_cores, device.split_vector_cores, false));
    if (device.split_vector_cores)
      write_text_atomically(file("ai_vector_core_utilization", ".csv"),
                            ai_core_utilization_csv(sampling->vector_cores, true, true));
  }
  write_text_atomically(file("msprof", ".json"), msprof_timeline(events, device, options, sampling ? &*sampling : nullptr));
}

}  // namespace

std::vector<std::string> pmu_columns(const DeviceInfo& device) {
  return device.split_vector_cores ? kSplitSummaryColumns : kCoupledSummaryColumns;
}

std::vector<std::string> op_summary_columns(const DeviceInfo& device, bool with_pmu) {
  std::vector<std::string> columns = kBaseColumns;
  if (with_pmu)
    for (const std::string& column : pmu_columns(device)) columns.push_back(column);
  return columns;
}

std::filesystem::path write_msprof_output(const CollectionOptions& options, const std::vector<ProfileEvent>& events,
                                          const DeviceInfo& device, const ProfiledModel& model) {
  const std::filesystem::path& dir = options.result_dir;
  ensure_directory(dir, "profile directory");
  const Stamp stamp = now_stamp();
  const std::string name = "PROF_000001_" + stamp.directory + "_" + random_letters();
  const std::filesystem::path staging = dir / ("." + name + ".partial");
  const std::filesystem::path output = staging / "mindstudio_profiler_output";
  try {
    ensure_directory(output, "profile directory");
    ensure_directory(staging / "device_0", "profile directory");
    write_text_atomically(staging / "device_0" / "sample.json", options.sample_config);
    write_msprof_info(staging, model, device);
    write_profile_files(options, events, device, output, stamp.files);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(staging, ignored);  // no partial PROF_ directory is left behind
    throw;
  }
  std::error_code error;
  std::filesystem::rename(staging, dir / name, error);
  if (error) {
    std::filesystem::remove_all(staging, error);
    throw Error(ErrorCode::FileWriteFailed, "cannot move the profile into " + (dir / name).string());
  }
  return dir / name;
}

}  // namespace asc::msprof
