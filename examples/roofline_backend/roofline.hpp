// The timing model: one operator's time on the chip from its cost facts alone.
//
// The roofline (S. Williams, A. Waterman, D. Patterson, "Roofline: an insightful visual
// performance model for multicore architectures", CACM 52(4), 2009) bounds a kernel's
// throughput by the lower of the chip's compute peak and its arithmetic intensity times the
// memory bandwidth; as a time that is
//
//   t = max(flops / peak(unit, dtype), bytes moved / device-memory bandwidth) + launch
//
// with perfect overlap of compute and memory traffic and every core busy: a bound for the traffic
// and work it is given, not a model of how the chip gets there (the NPU simulator models tiling,
// pipes, L2 and latencies). Operands are costed at the dtypes the graph runs in, and every byte
// goes through device memory, so for a graph read from an fp16 .om (float32 host dtypes) the
// memory term is twice the device's and no L2 hit shortens it.
//
// Where each term comes from (configs/soc/<soc>.yaml, whose README cites the sources):
//   Cube peak    2 * m * k * n flop per cycle per AI core (one m x k x n MMAD fractal per cycle,
//                a MAC counting 2: CANN's DtypeMKN, `cube.fp16` / `cube.int8` / `cube.fp32`)
//                x ai_cores x clock_mhz. On the 310P3: 2 * 16^3 * 8 * 1.07 GHz = 70.1 TFLOPS,
//                the product's 70 TFLOPS fp16. fp32 operands use `cube.fp32` when the SoC has
//                one, else the fp16 fractal (the SoC computes fp32 matrix work in fp16);
//                1-byte operands use `cube.int8`.
//   Vector peak  vector_bytes_per_cycle / element size lanes, one operation per lane per cycle
//                (one vector repeat per cycle), x the cores with a vector unit (the AI cores of a
//                coupled SoC, vector_cores of a split one) x clock_mhz.
//   Scalar       control-heavy operators (TopK, NMS) run on one core's scalar unit at one
//                operation per cycle (the NPU simulator's AI CPU assumption, docs/npusim.md).
//   Bandwidth    device_memory.bandwidth_gbs: every operand is read from and every result
//                written to device memory once (CostFacts::bytes_read + bytes_written; no L2
//                reuse).
//   Launch       fixed_costs.kernel_launch_us per task (scheduling and completion).
//   block_dim    every core of the task's kind, as the peak assumes (AI CPU tasks: 1).
// Metadata-only operators (ComputeUnit::None: Reshape, Flatten, ...) move nothing and are no task.
#pragma once

#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/tensor.hpp>
#include <string>

#include "soc_file.hpp"

namespace roofline {

struct TaskTime {
  std::string task_type;     // AI_CORE, AI_VECTOR_CORE (split SoCs' vector work), AI_CPU
  int block_dim = 1;
  double peak_flops_per_us = 0;   // the unit's peak at the operand dtype
  double bandwidth_bytes_per_us = 0;
  double compute_us = 0;     // flops / peak
  double memory_us = 0;      // bytes / bandwidth
  double launch_us = 0;
  double duration_us = 0;    // max(compute, memory) + launch
};

// The peak of `unit` for operands of `dtype`, in flop per microsecond.
double peak_flops_per_us(const SocFacts& soc, asc::ComputeUnit unit, asc::DType dtype);

// The task's time. `dtype` is the dtype of the operands the unit computes on (the first float
// input; see RooflineExecutable). Not for ComputeUnit::None.
TaskTime task_time(const SocFacts& soc, const asc::CostFacts& cost, asc::DType dtype);

}  // namespace roofline
