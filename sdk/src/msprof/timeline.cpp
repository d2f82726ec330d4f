#include "asc/sdk/msprof/timeline.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "asc/sdk/msprof/number_text.hpp"
#include "asc/sdk/msprof/memcpy_task.hpp"
#include "asc/sdk/msprof/profile_writer.hpp"

namespace asc::msprof {
namespace {

using Json = nlohmann::ordered_json;
constexpr int kStreamsPid = 0, kCoresPid = 1, kUtilizationPid = 2;

Json metadata(const std::string& kind, int pid, int tid, const std::string& name) {
  return {{"name", kind}, {"pid", pid}, {"tid", tid}, {"ph", "M"}, {"args", {{"name", name}}}};
}

Json task_args(const ProfileEvent& e, const std::set<std::string>& hidden) {
  Json args = {{"Model Id", 1},     {"Task Type", e.task_type}, {"Physic Stream Id", e.stream_id},
               {"Task Id", e.task_id}, {"Batch Id", 0},          {"Subtask Id", "N/A"}};
  if (is_host_copy(e)) {
    const double bytes = e.metrics.count("size(B)") ? e.metrics.at("size(B)") : 0;
    args["size(B)"] = static_cast<long long>(bytes);
    args["bandwidth(GB/s)"] = e.duration_us > 0 ? bytes / e.duration_us / 1e3 : 0.0;  // bytes/ns
    args["operation"] = memcpy_operation_name(e);
    return args;
  }
  args["Block Dim"] = e.block_dim;
  args["memory_copy_us"] = e.memory_copy_us;
  for (const auto& [key, value] : e.metrics)
    if (!hidden.count(key)) args[key] = value;
  return args;
}

void add_utilization(Json& trace, const AiCoreSampling& sampling) {
  trace.push_back(metadata("process_name", kUtilizationPid, 0, "AI Core Utilization"));
  for (const UtilizationSample& sample : sampling.ai_cores.samples) {
    double sum = 0;
    for (std::size_t core = 0; core < sample.utilization_percent.size(); ++core) {
      sum += sample.utilization_percent[core];
      trace.push_back({{"name", "Core " + std::to_string(core)}, {"pid", kUtilizationPid}, {"tid", 0},
                       {"ts", msprof_number(sample.start_us)}, {"ph", "C"},
                       {"args", {{"Utilization(%)", sample.utilization_percent[core]}}}});
    }
    const double cores = static_cast<double>(std::max<std::size_t>(1, sample.utilization_percent.size()));
    trace.push_back({{"name", "Average"}, {"pid", kUtilizationPid}, {"tid", 0}, {"ts", msprof_number(sample.start_us)},
                     {"ph", "C"}, {"args", {{"Utilization(%)", sum / cores}}}});
  }
}

}  // namespace

std::string msprof_timeline(const std::vector<ProfileEvent>& events, const DeviceInfo& device,
                            const CollectionOptions& options, const AiCoreSampling* sampling) {
  std::set<std::string> hidden = {"memcpy_operation"};
  if (!options.per_task_pmu())
    for (const std::string& column : pmu_columns(device)) hidden.insert(column);

  Json trace = Json::array();
  if (options.task_time != TaskTimeLevel::Off) {
    trace.push_back(metadata("process_name", kStreamsPid, 0, "Ascend Hardware"));
    std::set<int> streams;
    for (const ProfileEvent& e : events) streams.insert(e.stream_id);
    for (const int stream : streams) trace.push_back(metadata("thread_name", kStreamsPid, stream, "Stream " + std::to_string(stream)));
    trace.push_back(metadata("process_name", kCoresPid, 0, "AI Core (" + device.soc_version + ")"));
    const int lanes = std::max(device.ai_core_count, device.split_vector_cores ? device.vector_core_count : 0);
    for (int core = 0; core < lanes; ++core)
      trace.push_back(metadata("thread_name", kCoresPid, core, "Core " + std::to_string(core)));
    for (const ProfileEvent& e : events) {
      trace.push_back({{"name", e.op_name}, {"pid", kStreamsPid}, {"tid", e.stream_id}, {"ts", msprof_number(e.start_us)},
                       {"dur", e.duration_us}, {"ph", "X"}, {"cat", e.op_type}, {"args", task_args(e, hidden)}});
      for (int block = 0; block < e.block_dim && block < lanes; ++block)
        trace.push_back({{"name", e.op_name}, {"pid", kCoresPid}, {"tid", block}, {"ts", msprof_number(e.start_us)},
                         {"dur", e.duration_us}, {"ph", "X"}, {"cat", e.task_type}});
    }
  }
  if (sampling != nullptr) add_utilization(trace, *sampling);
  return trace.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace asc::msprof
