#include "msprof_output.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "output_paths.hpp"
#include "task_event.hpp"

namespace asc::npusim {
namespace {

const std::vector<std::string> kBaseColumns = {
    "Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
    "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Dim", "Mix Block Dim", "HF32 Eligible",
    "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes", "Output Data Types", "Output Formats",
    "Context ID"};

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3f", value);
  return buffer;
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i == 0 ? "" : ",") + csv_field(fields[i]);
  return line + "\n";
}

std::string op_summary(const std::vector<ProfileEvent>& events, const SocConfig& soc) {
  const std::vector<std::string> pmu = pmu_columns(soc);
  std::string text = csv_line(op_summary_columns(soc));
  for (const ProfileEvent& e : events) {
    std::vector<std::string> row = {"0", "1", std::to_string(e.task_id), std::to_string(e.stream_id), e.op_name,
                                    e.op_type, "static", e.task_type, number(e.start_us), number(e.duration_us),
                                    number(e.wait_us), std::to_string(e.block_dim), "0",
                                    "NO", e.input_shapes, e.input_dtypes, e.input_formats, e.output_shapes,
                                    e.output_dtypes, e.output_formats, "N/A"};
    for (const std::string& column : pmu) {
      const auto found = e.metrics.find(column);
      row.push_back(found == e.metrics.end() ? "N/A" : number(found->second));
    }
    text += csv_line(row);
  }
  return text;
}

std::string op_statistic(const std::vector<ProfileEvent>& events) {
  struct Stat {
    int count = 0;
    double total = 0, min = 0, max = 0;
  };
  std::map<std::pair<std::string, std::string>, Stat> stats;
  double all = 0;
  for (const ProfileEvent& e : events) {
    Stat& s = stats[{e.op_type, e.task_type}];
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
    text += csv_line({"0", key.first, key.second, std::to_string(s.count), number(s.total), number(s.total / s.count),
                      number(s.min), number(s.max), number(all > 0 ? 100.0 * s.total / all : 0)});
  return text;
}

// msprof's task_time: one row per task in launch order (kernel_type as msprof names the engines).
std::string task_time(const std::vector<ProfileEvent>& events) {
  std::string text = csv_line({"Device_id", "kernel_name", "kernel_type", "stream_id", "task_id", "task_time(us)",
                               "task_start(us)", "task_stop(us)"});
  for (const ProfileEvent& e : events) {
    const std::string kernel_type = e.task_type == "AI_CPU" ? "KERNEL_AICPU" : "KERNEL_AICORE";
    text += csv_line({"0", e.op_name, kernel_type, std::to_string(e.stream_id), std::to_string(e.task_id),
                      number(e.duration_us), number(e.start_us), number(e.start_us + e.duration_us)});
  }
  return text;
}

nlohmann::ordered_json metadata(const std::string& kind, int pid, int tid, const std::string& name) {
  return {{"name", kind}, {"pid", pid}, {"tid", tid}, {"ph", "M"}, {"args", {{"name", name}}}};
}

std::string timeline(const std::vector<ProfileEvent>& events, const SocConfig& soc) {
  constexpr int kStreamsPid = 0, kCoresPid = 1;
  nlohmann::ordered_json trace = nlohmann::ordered_json::array();
  trace.push_back(metadata("process_name", kStreamsPid, 0, "Ascend Hardware"));
  trace.push_back(metadata("thread_name", kStreamsPid, 0, "Stream 0"));
  trace.push_back(metadata("process_name", kCoresPid, 0, "AI Core (" + soc.name + ")"));
  const int lanes = std::max(soc.ai_cores, soc.split ? soc.vector_cores : 0);
  for (int core = 0; core < lanes; ++core) trace.push_back(metadata("thread_name", kCoresPid, core, "Core " + std::to_string(core)));
  for (const ProfileEvent& e : events) {
    nlohmann::ordered_json args = {{"Model Id", 1},         {"Task Type", e.task_type}, {"Physic Stream Id", e.stream_id},
                                   {"Task Id", e.task_id},  {"Block Dim", e.block_dim}, {"memory_copy_us", e.memory_copy_us}};
    for (const auto& [key, value] : e.metrics) args[key] = value;
    trace.push_back({{"name", e.op_name}, {"pid", kStreamsPid}, {"tid", e.stream_id}, {"ts", number(e.start_us)},
                     {"dur", e.duration_us}, {"ph", "X"}, {"cat", e.op_type}, {"args", args}});
    for (int block = 0; block < e.block_dim && block < lanes; ++block)
      trace.push_back({{"name", e.op_name}, {"pid", kCoresPid}, {"tid", block}, {"ts", number(e.start_us)},
                       {"dur", e.duration_us}, {"ph", "X"}, {"cat", e.task_type}});
  }
  return trace.dump(1) + "\n";
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

}  // namespace

std::vector<std::string> op_summary_columns(const SocConfig& soc) {
  std::vector<std::string> columns = kBaseColumns;
  for (const std::string& column : pmu_columns(soc)) columns.push_back(column);
  return columns;
}

std::filesystem::path write_msprof_output(const std::filesystem::path& dir, const std::vector<ProfileEvent>& events,
                                          const SocConfig& soc) {
  reference::ensure_directory(dir, "profile directory");
  const Stamp stamp = now_stamp();
  const std::string name = "PROF_000001_" + stamp.directory + "_" + random_letters();
  const std::filesystem::path staging = dir / ("." + name + ".partial");
  const std::filesystem::path output = staging / "mindstudio_profiler_output";
  reference::ensure_directory(output, "profile directory");
  write_text_atomically(output / ("op_summary_" + stamp.files + ".csv"), op_summary(events, soc));
  write_text_atomically(output / ("op_statistic_" + stamp.files + ".csv"), op_statistic(events));
  write_text_atomically(output / ("task_time_" + stamp.files + ".csv"), task_time(events));
  write_text_atomically(output / ("msprof_" + stamp.files + ".json"), timeline(events, soc));
  std::error_code error;
  std::filesystem::rename(staging, dir / name, error);
  if (error) {
    std::filesystem::remove_all(staging, error);
    throw Error(ErrorCode::FileWriteFailed, "cannot move the profile into " + (dir / name).string());
  }
  return dir / name;
}

}  // namespace asc::npusim
