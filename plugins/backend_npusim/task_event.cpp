#include "task_event.hpp"

#include <algorithm>

#include <asc/sdk/backend/operand_columns.hpp>

namespace asc::npusim {
namespace {

// "FLOAT" operands become the compute dtype's name; others keep theirs.
std::string with_compute_dtype(const std::string& dtypes, DType compute_dtype) {
  if (compute_dtype != DType::Float16) return dtypes;
  std::string result;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = dtypes.find(';', begin);
    const std::string item = dtypes.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    result += item == "FLOAT" ? "FLOAT16" : item;
    if (end == std::string::npos) break;
    result += ';';
    begin = end + 1;
  }
  return result;
}

void add_pipe(ProfileEvent& event, const std::string& prefix, const std::string& pipe, double cycles,
              const TaskTiming& t, const SocConfig& soc) {
  event.metrics[prefix + pipe + "_time(us)"] = cycles / soc.cycles_per_us();
  event.metrics[prefix + pipe + "_ratio"] = t.core_cycles > 0 ? cycles / t.core_cycles : 0;
}

void add_pmu_metrics(ProfileEvent& event, const TaskTiming& t, const SocConfig& soc) {
  const bool cube = t.pipes.mac > 0;
  const double compute_ratio = t.core_cycles > 0 ? std::max(t.pipes.mac, t.pipes.vec) / t.core_cycles : 0;
  const double mte2_ratio = t.core_cycles > 0 ? t.pipes.mte2 / t.core_cycles : 0;
  event.metrics["aicore_time(us)"] = t.aicore_us;
  event.metrics["memory_bound"] = compute_ratio > 0 ? mte2_ratio / compute_ratio : 0;
  event.metrics["cube_utilization(%)"] = t.cube_utilization;
  if (!soc.split) {
    event.metrics["total_cycles"] = t.core_cycles / t.waves * t.block_dim;  // all blocks
    add_pipe(event, "", "vec", t.pipes.vec, t, soc);
    add_pipe(event, "", "mac", t.pipes.mac, t, soc);
    add_pipe(event, "", "scalar", t.pipes.scalar, t, soc);
    add_pipe(event, "", "mte1", t.pipes.mte1, t, soc);
    add_pipe(event, "", "mte2", t.pipes.mte2, t, soc);
    add_pipe(event, "", "mte3", t.pipes.mte3, t, soc);  // coupled cores store cube tiles on MTE3 (no FixPipe)
  } else if (cube) {
    event.metrics["aic_total_cycles"] = t.core_cycles / t.waves * t.block_dim;  // all blocks
    add_pipe(event, "aic_", "mac", t.pipes.mac, t, soc);
    add_pipe(event, "aic_", "scalar", t.pipes.scalar, t, soc);
    add_pipe(event, "aic_", "mte1", t.pipes.mte1, t, soc);
    add_pipe(event, "aic_", "mte2", t.pipes.mte2, t, soc);
    add_pipe(event, "aic_", "fixpipe", t.pipes.fixpipe, t, soc);
  } else {
    event.metrics.erase("aicore_time(us)");
    event.metrics["aiv_time(us)"] = t.aicore_us;
    event.metrics["aiv_total_cycles"] = t.core_cycles / t.waves * t.block_dim;  // all blocks
    add_pipe(event, "aiv_", "vec", t.pipes.vec, t, soc);
    add_pipe(event, "aiv_", "scalar", t.pipes.scalar, t, soc);
    add_pipe(event, "aiv_", "mte2", t.pipes.mte2, t, soc);
    add_pipe(event, "aiv_", "mte3", t.pipes.mte3, t, soc);
  }
}

}  // namespace

ProfileEvent task_event(const KernelContext& context, std::size_t task_id, const TaskTiming& timing,
                        const SocConfig& soc, double start_us, DType compute_dtype) {
  ProfileEvent event = node_profile_event(context, task_id, start_us, timing.duration_us);
  event.task_type = timing.task_type;
  event.block_dim = timing.block_dim;
  event.memory_copy_us = timing.memory_copy_us;
  event.input_dtypes = with_compute_dtype(event.input_dtypes, compute_dtype);
  event.output_dtypes = with_compute_dtype(event.output_dtypes, compute_dtype);
  if (timing.task_type != "AI_CPU") add_pmu_metrics(event, timing, soc);
  // Beyond msprof's columns: what the timing model knows and a real PMU does not report.
  event.metrics["flops"] = timing.exact_flops;
  event.metrics["padded_flops"] = timing.padded_flops;
  event.metrics["cube_padding_ratio"] = timing.exact_flops > 0 ? timing.padded_flops / timing.exact_flops : 1;
  event.metrics["device_memory_bytes"] = static_cast<double>(timing.device_memory_bytes);
  event.metrics["l2_bytes"] = static_cast<double>(timing.l2_bytes);
  event.metrics["l1_in_bytes"] = static_cast<double>(timing.l1_in_bytes);
  event.metrics["l0_in_bytes"] = static_cast<double>(timing.l0_in_bytes);
  event.metrics["ub_in_bytes"] = static_cast<double>(timing.ub_in_bytes);
  event.metrics["out_bytes"] = static_cast<double>(timing.out_bytes);
  return event;
}

}  // namespace asc::npusim
