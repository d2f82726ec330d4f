#include "msprof/task_timing.hpp"

#include <asc/sdk/error.hpp>
#include <nlohmann/json.hpp>

#include "analysis/text_format.hpp"

namespace asc::profiler {
namespace {

// msprof writes ts/dur as strings ("12.340") or numbers.
std::optional<double> json_number(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  double parsed = 0;
  if (value.is_string() && parse_number(value.get<std::string>(), parsed) == NumberParse::Ok) return parsed;
  return std::nullopt;
}

std::optional<double> arg_number(const nlohmann::json& args, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (args.contains(name))
      if (auto value = json_number(args[name])) return value;
  return std::nullopt;
}

// event[key] when it is a string, else "" (nlohmann's value() throws on a number there).
std::string string_field(const nlohmann::json& event, const char* key) {
  const auto found = event.find(key);
  return found != event.end() && found->is_string() ? found->get<std::string>() : std::string();
}

}  // namespace

std::vector<TimedTask> read_task_time(const CsvTable& table) {
  const std::size_t stream = find_column(table, {"stream_id", "Stream ID"});
  const std::size_t task = find_column(table, {"task_id", "Task ID"});
  const std::size_t start = find_column(table, {"task_start(us)"});
  const std::size_t stop = find_column(table, {"task_stop(us)"});
  const std::size_t duration = find_column(table, {"task_time(us)"});
  const std::size_t name = find_column(table, {"kernel_name"});
  const std::size_t type = find_column(table, {"kernel_type"});
  std::vector<TimedTask> tasks;
  for (const CsvRow& row : table.rows) {
    const auto stream_id = integer_at(table, row, stream);
    const auto task_id = integer_at(table, row, task);
    const auto start_us = time_at(table, row, start);
    if (!stream_id || !task_id || !start_us) continue;
    TimedTask timed;
    timed.stream_id = *stream_id;
    timed.task_id = *task_id;
    timed.start_us = *start_us;
    if (const auto us = time_at(table, row, duration)) {
      timed.duration_us = *us;
    } else if (const auto stop_us = time_at(table, row, stop)) {
      timed.duration_us = *stop_us - *start_us;
      check_time(timed.duration_us, table.file.string() + ":" + std::to_string(row.line),
                 "task_stop(us) - task_start(us)");
    }
    if (name != std::string::npos) timed.name = trim(row.fields[name]);
    timed.memcpy = type != std::string::npos && contains_ignoring_case(row.fields[type], "memcpy");
    tasks.push_back(std::move(timed));
  }
  return tasks;
}

std::vector<TimedTask> parse_timeline_json(std::string_view text, const std::filesystem::path& file) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw Error(ErrorCode::FileFormatInvalid, file.string() + ": not valid JSON (" + error.what() + ")");
  }
  const nlohmann::json* events = &document;
  if (document.is_object() && document.contains("traceEvents")) events = &document["traceEvents"];
  if (!events->is_array())
    throw Error(ErrorCode::FileFormatInvalid, file.string() +
                                                  ": expected a JSON array of trace events or an "
                                                  "object with \"traceEvents\"");
  std::vector<TimedTask> tasks;
  for (const nlohmann::json& event : *events) {
    if (!event.is_object() || string_field(event, "ph") != "X" || !event.contains("args") ||
        !event["args"].is_object())
      continue;
    const nlohmann::json& args = event["args"];
    const auto stream = arg_number(args, {"Physic Stream Id", "Stream Id", "stream_id"});
    const auto task = arg_number(args, {"Task Id", "task_id"});
    const auto ts = event.contains("ts") ? json_number(event["ts"]) : std::nullopt;
    if (!stream || !task || !ts) continue;
    TimedTask timed;
    const std::string origin = file.string() + ": trace event '" + string_field(event, "name") + "'";
    timed.stream_id = checked_int(*stream, origin, "stream id");
    timed.task_id = checked_int(*task, origin, "task id");
    check_time(*ts, origin, "ts");
    timed.start_us = *ts;
    if (event.contains("dur"))
      if (const auto dur = json_number(event["dur"])) {
        check_time(*dur, origin, "dur");
        timed.duration_us = *dur;
      }
    timed.name = string_field(event, "name");
    const std::string task_type = args.contains("Task Type") && args["Task Type"].is_string()
                                      ? args["Task Type"].get<std::string>()
                                      : std::string();
    timed.memcpy =
        contains_ignoring_case(timed.name, "memcpy") || contains_ignoring_case(task_type, "memcpy");
    for (const auto& [key, value] : args.items())
      if (const auto number = json_number(value)) timed.values[key] = *number;
    tasks.push_back(std::move(timed));
  }
  return tasks;
}

}  // namespace asc::profiler
