// The per-task timing model, driven by the tiling the compiler chose (compiler/tiling.hpp).
//
// Per core, tiles flow through the pipes: cube tasks MTE2 (GM/L2 -> L1) -> MTE1 (L1 -> L0A/L0B)
// -> Cube (MMAD) -> FixPipe (L0C -> GM); vector tasks MTE2 (GM/L2 -> UB) -> Vector -> MTE3
// (UB -> GM); the scalar unit pays a head cost per tile. With double buffering the pipes
// overlap, so a core's steady state is its busiest pipe and only the pipeline fill and drain
// (one unit of every other pipe) add to it; without it the pipes run one after another. Blocks
// run on the cores in waves; the chip's device-memory and L2 bandwidth are shared by all blocks.
// Per-transfer and per-instruction fixed costs come from the SoC file: a DMA transfer (MTE2, MTE3,
// FixPipe) is latency-bound when small and bandwidth-bound when large (transfer_cycles), an MMAD
// or vector instruction never takes less than its measured minimum. docs/npusim.md explains the
// rules and their sources.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <asc/sdk/op_registry.hpp>

#include "compiler/compiled_model.hpp"
#include "gemm_dims.hpp"
#include "soc_config.hpp"

namespace asc::npusim {

// What the timing model and the tiler know about one task.
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
  // The outputs' bytes at their device dtypes, when known (a Cast writes another dtype than it
  // reads: fp32 in, fp16 out); 0: output_elements at element_bytes.
  std::int64_t output_bytes = 0;
  std::optional<GemmDims> gemm;       // cube ops whose shapes were readable
  bool conv_filter = false;           // B is an ungrouped convolution's FRACTAL_Z filter
  std::int64_t l2_resident_input_bytes = 0;  // inputs still in L2 (reuse distance, profile_task_inputs)
  // Operators that schedule themselves (the TBE DSL; CostFacts::tiling): their tiling, used
  // instead of the compiler's, and the Vector passes their epilogue runs on every Cube output
  // tile before it leaves the core (a vec pipe next to the cube's).
  std::optional<Tiling> scheduled;
  double epilogue_passes = 0;
};

// Busy cycles per pipe on the busiest core (all its blocks).
struct PipeCycles {
  double mac = 0, vec = 0, scalar = 0, mte1 = 0, mte2 = 0, mte3 = 0, fixpipe = 0;
};

struct TaskTiming {
  std::string task_type;  // AI_CORE, AI_VECTOR_CORE, AI_CPU
  int block_dim = 1;
  int waves = 1;             // rounds of blocks on the busiest core
  PipeCycles pipes;
  double core_cycles = 0;    // the busiest core, first load to last store
  double aicore_us = 0;      // core_cycles at the clock
  double chip_memory_us = 0; // device-memory and L2 traffic at the chip-wide bandwidths
  double duration_us = 0;    // max(aicore, chip memory) + launch cost
  double compute_us = 0;     // cube or vector pipe time
  double memory_us = 0;      // MTE pipes / chip memory, whichever is longer
  double memory_copy_us = 0; // the part of the task memory traffic does not hide under compute
  double cube_utilization = 0;  // % of all AI cores' cube cycles spent in MMADs over the task
  double exact_flops = 0, padded_flops = 0;
  // Bytes moved, whole task: from device memory and from L2 (loads), plus the levels inside
  // the cores.
  std::int64_t device_memory_bytes = 0, l2_bytes = 0;  // writes included: into L2 when they fit, else device memory
  std::int64_t l1_in_bytes = 0;   // MTE2 into L1 (cube)
  std::int64_t l0_in_bytes = 0;   // MTE1 into L0A/L0B (cube; img2col-expanded)
  std::int64_t ub_in_bytes = 0;   // MTE2 into UB (vector)
  std::int64_t out_bytes = 0;     // FixPipe / MTE3 to GM
};

// Cycles of one vector instruction over `bytes` of data: one repeat per vector width, never
// less than the instruction's minimum (msKPP: a single 128-element fp16 repeat runs at 42.3
// elements/cycle).
double vector_instruction_cycles(const SocConfig& soc, std::int64_t bytes);

// Cycles of one MMAD of m x k x n (fractal multiples): one cycle per fractal plus the issue cost
// (msKPP: 8066 of 8192 ops/cycle at m32 k16 n1024), never less than the instruction's minimum
// (msKPP: 3370 ops/cycle at m32 k16 n16, 4.86 cycles for its 2 fractals).
double mmad_cycles(const SocConfig& soc, const CubeShape& cube, std::int64_t m, std::int64_t k, std::int64_t n);

// Cycles of one DMA transfer whose bytes take `streaming_cycles` at the path's width, on a path
// with a per-transfer latency: sqrt(latency^2 + streaming^2). A small transfer costs about its
// latency, a large one its streaming time; the blend in between follows msKPP's measured
// bandwidth-against-size curves (fits and errors in the SoC files' comments).
double transfer_cycles(double latency_cycles, double streaming_cycles);

// How one finished L0C tile of `elements` leaves a cube core at `element_bytes` per element.
// Split cores (dav-c220) write it to GM through their FixPipe. The coupled cores (Ascend310,
// 310P, 910) have none (Ascend C's Fixpipe is unsupported on "Atlas inference product AI Core"
// and "Atlas training product"): their vector unit moves the tile from L0C to UB, converting the
// fp32 accumulators (CO1 -> CO2, `drain` cycles on the vec pipe), and MTE3 writes it to GM
// (`store` cycles, on the fixpipe pipe of split cores, on mte3 of coupled ones). A store whose
// destination stays in L2 (`into_l2`, output_stays_in_l2) runs at the path's L2 write width.
struct CubeOutputTile {
  double drain = 0, store = 0;
};
CubeOutputTile cube_output_tile(const SocConfig& soc, std::int64_t elements, std::size_t element_bytes, bool into_l2);

// Whether the task's outputs are written into L2 (they fit it: write-back, the next task reads
// them there) rather than streamed to device memory.
bool output_stays_in_l2(const SocConfig& soc, const TaskInput& task);

// The cube fractal for a compute dtype of `element_bytes` (int8: 1, fp32: 4 when the SoC has an
// fp32 cube, else fp16's).
const CubeShape& cube_shape(const SocConfig& soc, std::size_t element_bytes);

// Throws EE9001 for a cube task whose tiling lacks its sizes.
TaskTiming time_task(const SocConfig& soc, const TaskInput& task, const Tiling& tiling);

}  // namespace asc::npusim
