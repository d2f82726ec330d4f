#include "analysis/report_json.hpp"

namespace asc::profiler {

nlohmann::ordered_json report_field_docs() {
  static const std::pair<const char*, const char*> kFields[] = {
      {"model_name",
       "model name: the modelTrade --model_name override, else op_summary's Model Name column, else "
       "the profile's info.json (model.name, written by the NPU simulator), else \"unknown\""},
      {"soc_version",
       "Ascend SoC the profile was taken on: the --soc_version override, else the profile's info.json "
       "(soc_version, written by the NPU simulator), else \"unknown\" (msprof's CSVs do not name it)"},
      {"total_time", "total device time in microseconds: the sum of every task's Task Duration(us)"},
      {"op_summary",
       "one entry per operator (op name); an operator run several times (iterations) has its "
       "executions summed; sorted by device_time, largest first"},
      {"op_summary[].op_name", "operator name (op_summary's Op Name)"},
      {"op_summary[].op_type", "operator type (OP Type)"},
      {"op_summary[].device_time", "microseconds of device time: the sum of its tasks' Task Duration(us)"},
      {"op_summary[].memory_copy_time",
       "microseconds of that time spent moving data between memory and the AI Core; see memory_copy_basis"},
      {"op_summary[].ratio", "device_time / total_time, a fraction (the entries sum to 1)"},
      {"memory_copy_time", "sum of every task's memory_copy_time, microseconds"},
      {"compute_time_ratio",
       "(total_time - memory_copy_time) / total_time; below 0.6 means memory-bandwidth bound"},
      {"operator_count", "entries in op_summary"},
      {"task_count", "tasks (rows) analysed"},
      {"top_operators",
       "the (up to) 5 operators with the most device time: count, their device_time (us), their "
       "share of total_time (fraction), and their names"},
      {"op_type_statistics",
       "per operator type, sorted by total_time: count (tasks), total_time, mean_time, "
       "max_time, min_time (us, per task) and ratio (total_time share, fraction)"},
      {"pipe_utilization",
       "time-weighted mean busy fraction of each AI Core pipe over the tasks that report it "
       "(msprof PipeUtilization: <pipe>_ratio, largest of the aic_/aiv_/unprefixed spellings; "
       "<pipe>_time(us) / duration when only times are present); null when no task reports it"},
      {"pipe_utilization.mac", "Cube unit (matrix multiply-accumulate)"},
      {"pipe_utilization.vec", "Vector unit"},
      {"pipe_utilization.scalar", "Scalar unit (control flow, address computation)"},
      {"pipe_utilization.mte1", "MTE1: L1 -> L0A/L0B data movement"},
      {"pipe_utilization.mte2", "MTE2: global memory (DDR/HBM) -> AI Core (L1/UB)"},
      {"pipe_utilization.mte3", "MTE3: UB -> global memory"},
      {"pipe_utilization.fixpipe", "FixPipe: L0C -> global memory / L1 (Atlas A2 and later)"},
      {"pipe_utilization.coverage", "fraction of total_time spent in tasks that carry PMU pipe data"},
      {"health",
       "seed 2's msprof health table: metric, healthy_when, value (null when not measured), unit, status "
       "(healthy / unhealthy / not measured) and basis (how it was measured or what is missing)"},
      {"advice",
       "what the rules found: rule id, severity (info / warning / critical) and a message citing the "
       "numbers it saw"},
      {"rules", "every rule that ran: id, description, thresholds, and whether it fired"},
      {"memory_copy_basis",
       "tasks per basis of their memory_copy_time: memcpy_task (a memory copy: all of its duration), "
       "reported (set "
       "by the backend that produced the profile), pmu_time (MTE2 + MTE3 busy time, aic_/aiv_mte2_time(us) + "
       "mte3_time(us)), pmu_ratio ((mte2_ratio + mte3_ratio) x duration), data_movement_op (no PMU data and "
       "the "
       "operator only rearranges data: all of its duration), none (no PMU data on a compute operator: 0); "
       "every "
       "figure is capped at the task's duration"},
      {"timeline",
       "origin (absolute start of the earliest task, us), span (earliest start to latest end, us), "
       "start_times (measured, or laid end to end when the data has none), and lanes: one per stream "
       "and core type (AI Core, AI Vector Core, AI CPU, Memcpy, ...) with their task counts"},
      {"tasks",
       "every task by start time: op_name, op_type, task_type, category (cube, vector, data_movement, "
       "memcpy, aicpu, communication), stream_id, task_id, lane (index into timeline.lanes), start_time "
       "(us after timeline.origin), device_time, wait_time (Task Wait Time), block_dim, memory_copy_time, "
       "memory_copy_basis, and the operand shapes, data types and formats in msprof's spelling"},
      {"source",
       "where the profile came from: directory, files read (role, path, records), the op_summary header "
       "generation (block_column: Block Dim up to CANN 8.x, Block Num from 2026), pmu_columns (aic_/aiv_ "
       "prefixed or unprefixed), where start times came from, rows skipped, memory copies added from "
       "task_time / msprof json, and profiled_model (model_name, soc_version, precision_mode, batch, and "
       "timing_accuracy: a simulator's calibration error band, empty for a real card) when the profile's "
       "info.json names them"},
  };
  nlohmann::ordered_json fields;
  for (const auto& [path, meaning] : kFields) fields[path] = meaning;
  return fields;
}

}  // namespace asc::profiler
