#include "render/chrome_trace.hpp"

#include <set>

namespace asc::profiler {
namespace {

using Json = nlohmann::ordered_json;

int pid_of(int stream_id) {
  return stream_id < 0 ? kNoStreamPid : stream_id;
}

Json metadata(const char* name, int pid, int tid, Json args) {
  return {{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

}  // namespace

Json chrome_trace(const Json& report) {
  Json events = Json::array();
  const Json& lanes = report.at("timeline").at("lanes");
  std::set<int> streams;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const int stream = lanes[i].at("stream_id").get<int>();
    const int pid = pid_of(stream);
    if (streams.insert(stream).second) {
      events.push_back(
          metadata("process_name", pid, 0,
                   {{"name", stream < 0 ? std::string("Stream N/A") : "Stream " + std::to_string(stream)}}));
      events.push_back(metadata("process_sort_index", pid, 0, {{"sort_index", pid}}));
    }
    const int tid = static_cast<int>(i) + 1;
    events.push_back(metadata("thread_name", pid, tid, {{"name", lanes[i].at("name")}}));
    events.push_back(metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
  }
  for (const Json& task : report.at("tasks")) {
    const std::size_t lane = task.at("lane").get<std::size_t>();
    events.push_back({{"name", task.at("op_name")},
                      {"cat", task.at("category")},
                      {"ph", "X"},
                      {"ts", task.at("start_time")},
                      {"dur", task.at("device_time")},
                      {"pid", pid_of(task.at("stream_id").get<int>())},
                      {"tid", static_cast<int>(lane) + 1},
                      {"args",
                       {{"op_type", task.at("op_type")},
                        {"task_type", task.at("task_type")},
                        {"task_id", task.at("task_id")},
                        {"block_dim", task.at("block_dim")},
                        {"memory_copy_time(us)", task.at("memory_copy_time")},
                        {"input_shapes", task.at("input_shapes")},
                        {"input_data_types", task.at("input_data_types")},
                        {"input_formats", task.at("input_formats")},
                        {"output_shapes", task.at("output_shapes")}}}});
  }
  return {{"traceEvents", events},
          {"displayTimeUnit", "ms"},
          {"otherData",
           {{"model_name", report.at("model_name")},
            {"soc_version", report.at("soc_version")},
            {"origin_us", report.at("timeline").at("origin")},
            {"producer", "modelTrade"}}}};
}

}  // namespace asc::profiler
