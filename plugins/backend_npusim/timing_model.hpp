// The per-task timing model (first version): analytic pipe times per core from the operator's
// cost facts, its shapes and the SoC, with double buffering (pipes overlap; the task takes as
// long as its busiest pipe plus the first load and last store), blocks spread over cores, and
// chip-wide device-memory / L2 bandwidth shared by all blocks. Tiling is the model's own fixed
// choice (see docs/npusim.md), not one chosen by a compiler.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <asc/sdk/op_registry.hpp>

#include "gemm_dims.hpp"
#include "soc_config.hpp"

namespace asc::npusim {

struct TaskInput {
  ComputeUnit unit = ComputeUnit::Vector;
  double flops = 0;                   // CostFacts::flops
  std::int64_t input_elements = 0;    // all inputs (weights included)
  std::int64_t first_input_elements = 0;  // input 0: a cube op's activation / A operand
  std::int64_t output_elements = 0;   // all outputs
  std::int64_t largest_elements = 0;  // the largest operand: what a vector op iterates over
  int input_count = 1;
  int output_count = 1;
  std::size_t element_bytes = 2;      // at the compute dtype
  std::optional<GemmDims> gemm;       // cube ops whose shapes were readable
  std::int64_t l2_resident_input_bytes = 0;  // inputs still in L2 (written by the previous task)
};

// Busy cycles per pipe, on one core (the busiest).
struct PipeCycles {
  double mac = 0, vec = 0, scalar = 0, mte1 = 0, mte2 = 0, mte3 = 0, fixpipe = 0;
};

struct TaskTiming {
  std::string task_type;  // AI_CORE, AI_VECTOR_CORE, AI_CPU
  int block_dim = 1;
  PipeCycles pipes;
  double core_cycles = 0;    // one core, first load to last store
  double aicore_us = 0;      // core_cycles at the clock
  double chip_memory_us = 0; // device-memory and L2 traffic at the chip-wide bandwidths
  double duration_us = 0;    // max(aicore, chip memory) + launch cost
  double compute_us = 0;     // cube or vector pipe time
  double memory_us = 0;      // MTE pipes / chip memory, whichever is longer
  double memory_copy_us = 0; // the part of the task memory traffic does not hide under compute
  double exact_flops = 0, padded_flops = 0;
  std::int64_t device_memory_bytes = 0, l2_bytes = 0;
};

// Cycles of one vector instruction over `bytes` of data: one repeat per vector width, never
// less than the instruction's minimum (msKPP: a single 128-element fp16 repeat runs at 42.3
// elements/cycle).
double vector_instruction_cycles(const SocConfig& soc, std::int64_t bytes);

TaskTiming time_task(const SocConfig& soc, const TaskInput& task);

}  // namespace asc::npusim
