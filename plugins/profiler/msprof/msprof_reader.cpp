#include "msprof/msprof_reader.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>
#include <cmath>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "msprof/csv_table.hpp"
#include "msprof/op_summary_reader.hpp"
#include "msprof/task_timing.hpp"

namespace asc::profiler {
namespace {

using TaskKey = std::pair<int, int>;  // (stream id, task id)

void add_spelling(std::string& list, const std::string& spelling) {
  if (spelling.empty() || list.find(spelling) != std::string::npos) return;
  list += (list.empty() ? "" : ", ") + spelling;
}

// Start times for rows that lack one, taken in order from tasks with the same (stream, task)
// key: task ids repeat across iterations, so the n-th row of a key gets the n-th timing.
std::size_t fill_starts(std::vector<ProfileEvent>& events, std::vector<bool>& has_start,
                        const std::vector<TimedTask>& timings) {
  std::map<TaskKey, std::deque<double>> starts;
  for (const TimedTask& timed : timings) starts[{timed.stream_id, timed.task_id}].push_back(timed.start_us);
  std::size_t filled = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    auto& queue = starts[{events[i].stream_id, events[i].task_id}];
    if (queue.empty()) continue;
    const double start = queue.front();
    queue.pop_front();
    if (has_start[i]) continue;
    events[i].start_us = start;
    has_start[i] = true;
    ++filled;
  }
  return filled;
}

// Rows still without a start follow the previous task of their stream (plus their wait time).
void place_after_predecessors(std::vector<ProfileEvent>& events, const std::vector<bool>& has_start) {
  std::map<int, double> stream_end;
  for (std::size_t i = 0; i < events.size(); ++i) {
    ProfileEvent& event = events[i];
    if (!has_start[i]) event.start_us = stream_end[event.stream_id] + event.wait_us;
    stream_end[event.stream_id] = event.start_us + event.duration_us;
  }
}

ProfileEvent memcpy_event(const TimedTask& timed) {
  ProfileEvent event;
  event.op_name = timed.name.empty() ? "MemcpyAsync" : timed.name;
  event.op_type = "MemcpyAsync";
  event.task_type = "MEMCPY_ASYNC";
  event.stream_id = timed.stream_id;
  event.task_id = timed.task_id;
  event.start_us = timed.start_us;
  event.duration_us = timed.duration_us;
  event.metrics = timed.values;
  return event;
}

}  // namespace

MsprofProfile read_msprof_files(const MsprofFiles& files, const FileText& text_of) {
  MsprofProfile profile;
  profile.directory = files.directory;
  std::vector<bool> has_start;
  for (const auto& path : files.op_summary) {
    OpSummaryRows rows = read_op_summary(parse_csv(text_of(path), path));
    profile.files.push_back({"op_summary", path, rows.events.size(),
                             rows.skipped_rows
                                 ? std::to_string(rows.skipped_rows) + " rows without a duration skipped"
                                 : std::string()});
    add_spelling(profile.block_column, rows.block_column);
    add_spelling(profile.pmu_naming, rows.pmu_naming);
    profile.skipped_rows += rows.skipped_rows;
    if (profile.trace.model_name.empty()) profile.trace.model_name = rows.model_name;
    for (auto& event : rows.events) profile.trace.events.push_back(std::move(event));
    has_start.insert(has_start.end(), rows.has_start.begin(), rows.has_start.end());
  }
  if (profile.trace.events.empty())
    throw Error(ErrorCode::ConfigBadValue,
                "op_summary in " + files.directory.string() +
                    " has no task rows with a Task Duration(us): nothing to analyse");

  std::vector<TimedTask> task_times, json_times;
  for (const auto& path : files.task_time) {
    auto tasks = read_task_time(parse_csv(text_of(path), path));
    profile.files.push_back({"task_time", path, tasks.size(), ""});
    task_times.insert(task_times.end(), tasks.begin(), tasks.end());
  }
  for (const auto& path : files.timeline_json) {
    try {
      auto tasks = parse_timeline_json(text_of(path), path);
      profile.files.push_back({"timeline_json", path, tasks.size(), ""});
      json_times.insert(json_times.end(), tasks.begin(), tasks.end());
    } catch (const Error& error) {
      // The timeline only supplements op_summary; a broken one should not stop the analysis.
      log_warning("modelTrade: ignoring " + path.string() + ": " + error.message());
      profile.files.push_back({"timeline_json", path, 0, "ignored: " + error.message()});
    }
  }

  std::size_t measured = 0;
  for (const bool start : has_start) measured += start ? 1 : 0;
  const std::size_t from_task_time = fill_starts(profile.trace.events, has_start, task_times);
  const std::size_t from_json = fill_starts(profile.trace.events, has_start, json_times);
  const std::size_t total = profile.trace.events.size();
  if (measured == total) {
    profile.start_times = "op_summary Task Start Time(us)";
  } else if (measured + from_task_time + from_json == 0) {
    profile.start_times = "not in the data";
  } else {
    profile.start_times = std::to_string(measured) + " from op_summary, " + std::to_string(from_task_time) +
                          " from task_time, " + std::to_string(from_json) + " from msprof json, " +
                          std::to_string(total - measured - from_task_time - from_json) +
                          " placed after the previous task of their stream";
    place_after_predecessors(profile.trace.events, has_start);
  }

  if (profile.start_times != "not in the data") {
    std::set<TaskKey> listed;
    for (const ProfileEvent& event : profile.trace.events) listed.insert({event.stream_id, event.task_id});
    std::set<std::tuple<int, int, long long>> added;
    for (const auto* source : {&json_times, &task_times})
      for (const TimedTask& timed : *source) {
        if (!timed.memcpy || listed.count({timed.stream_id, timed.task_id})) continue;
        if (!added.insert({timed.stream_id, timed.task_id, std::llround(timed.start_us)}).second) continue;
        profile.trace.events.push_back(memcpy_event(timed));
        ++profile.memcpy_tasks_added;
      }
  }
  return profile;
}

MsprofProfile read_msprof_profile(const std::filesystem::path& report) {
  const MsprofFiles files = locate_msprof_files(report);
  MsprofProfile profile = read_msprof_files(files, [](const std::filesystem::path& path) {
    const std::vector<std::byte> bytes = read_file(path);
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  });
  profile.profiled = read_profiled_model(files.directory);
  if (profile.profiled) {
    if (profile.trace.model_name.empty()) profile.trace.model_name = profile.profiled->model_name;
    profile.trace.soc_version = profile.profiled->soc_version;
    profile.files.push_back({"info_json", profile.profiled->file, 1, ""});
  }
  return profile;
}

nlohmann::ordered_json source_section(const MsprofProfile& profile) {
  nlohmann::ordered_json source;
  source["directory"] = profile.directory.string();
  source["files"] = nlohmann::ordered_json::array();
  for (const SourceFile& file : profile.files) {
    nlohmann::ordered_json item{{"role", file.role}, {"path", file.path.string()}, {"records", file.records}};
    if (!file.note.empty()) item["note"] = file.note;
    source["files"].push_back(std::move(item));
  }
  source["block_column"] = profile.block_column.empty() ? "absent" : profile.block_column;
  source["pmu_columns"] = profile.pmu_naming;
  source["start_times"] = profile.start_times;
  source["skipped_rows"] = profile.skipped_rows;
  source["memcpy_tasks_added"] = profile.memcpy_tasks_added;
  if (profile.profiled)
    source["profiled_model"] = {{"model_name", profile.profiled->model_name},
                                {"soc_version", profile.profiled->soc_version},
                                {"precision_mode", profile.profiled->precision_mode},
                                {"batch", profile.profiled->batch},
                                {"timing_accuracy", profile.profiled->timing_accuracy}};
  return source;
}

}  // namespace asc::profiler
