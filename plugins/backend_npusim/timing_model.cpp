#include "timing_model.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <cmath>

namespace asc::npusim {
namespace {

std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Where a task's loads come from: first touches from device memory (L2 for inputs the previous
// task left there), re-reads from L2 when the bytes loaded between two reads of the same data
// (the reuse window) fit in it.
struct Loads {
  double device = 0, l2 = 0;
};

Loads split_loads(const SocConfig& soc, double first_touch, double total, double l2_resident, double reuse_window) {
  Loads loads;
  const double resident = std::min(l2_resident, first_touch);
  const double rereads = std::max(0.0, total - first_touch);
  loads.l2 = resident;
  loads.device = first_touch - resident;
  if (reuse_window <= static_cast<double>(soc.l2_bytes))
    loads.l2 += rereads;
  else
    loads.device += rereads;
  return loads;
}

// One pipe of a core: its busy cycles over the whole task, and one unit of its work (a tile's
// load, one instruction, ...) — what it adds to the pipeline's fill or drain.
struct Pipe {
  double total = 0, unit = 0;
};

// Double buffered: the busiest pipe sets the pace and every other pipe adds one unit of fill
// or drain; single buffered: the pipes take turns.
double core_cycles(const std::vector<Pipe>& pipes, bool double_buffer) {
  double sum_total = 0, sum_units = 0, busiest = 0, busiest_unit = 0;
  for (const Pipe& pipe : pipes) {
    sum_total += pipe.total;
    sum_units += pipe.unit;
    if (pipe.total > busiest) {
      busiest = pipe.total;
      busiest_unit = pipe.unit;
    }
  }
  return double_buffer ? busiest + sum_units - busiest_unit : sum_total;
}

// `transfers` DMA transfers of equal size sharing `streaming_cycles` at the path's width, each
// paying the path's latency (none when nothing moves: an operator without inputs or outputs).
double equal_transfers_cycles(double transfers, double latency_cycles, double streaming_cycles) {
  return transfers > 0 ? transfers * transfer_cycles(latency_cycles, streaming_cycles / transfers) : 0.0;
}

// Output writes: a task's outputs that fit in L2 are written into it (write-back), where the next
// task reads them (the L2-hit rule, task_input.cpp); the arena reuses activation buffers, so their
// lines are rewritten in L2 rather than evicted. Larger outputs stream to device memory.
struct Writes {
  double device = 0, l2 = 0;
};
bool fits_l2(const SocConfig& soc, double output_bytes) { return output_bytes <= static_cast<double>(soc.l2_bytes); }
Writes split_writes(const SocConfig& soc, double output_bytes) {
  return fits_l2(soc, output_bytes) ? Writes{0, output_bytes} : Writes{output_bytes, 0};
}

// What a task writes: its outputs at their device dtypes, or at the compute dtype when unknown.
double written_bytes(const TaskInput& task) {
  return task.output_bytes > 0 ? static_cast<double>(task.output_bytes)
                               : static_cast<double>(task.output_elements) *
                                     static_cast<double>(std::max<std::size_t>(1, task.element_bytes));
}

void finish(const SocConfig& soc, TaskTiming& t, double compute_cycles, double memory_cycles, double device_bytes,
            double l2_bytes) {
  t.device_memory_bytes = static_cast<std::int64_t>(device_bytes);
  t.l2_bytes = static_cast<std::int64_t>(l2_bytes);
  t.aicore_us = t.core_cycles / soc.cycles_per_us();
  // Device memory serves the L2 misses while L2 serves the hits and passes the misses on: the two
  // work at once, so the chip's memory time is the busier of DRAM (misses) and L2 (all traffic).
  t.chip_memory_us = std::max(device_bytes / (soc.device_memory_bandwidth_gbs * 1e3),
                              (device_bytes + l2_bytes) / (soc.l2_bandwidth_gbs * 1e3));
  t.compute_us = compute_cycles / soc.cycles_per_us();
  t.memory_us = std::max(memory_cycles / soc.cycles_per_us(), t.chip_memory_us);
  t.memory_copy_us = std::max(0.0, t.memory_us - t.compute_us);
  // The task's start (scalar setup, tiling data, the kernel's first instructions on every core)
  // comes before its first load and hides under nothing.
  t.duration_us = std::max(t.aicore_us, t.chip_memory_us) + soc.fixed.task_start_cycles / soc.cycles_per_us() +
                  soc.fixed.kernel_launch_us;
}

TaskTiming time_cube(const SocConfig& soc, const TaskInput& task, const Tiling& tiling) {
  if (tiling.block_m <= 0 || tiling.block_n <= 0 || tiling.base_m <= 0 || tiling.base_k <= 0 || tiling.base_n <= 0 ||
      tiling.l1_k <= 0 || tiling.m <= 0 || tiling.k <= 0 || tiling.n <= 0)
    throw Error(ErrorCode::Internal, "cube task tiling is incomplete: m/k/n, block_m/block_n, base_m/base_k/base_n and "
                                     "l1_k must all be positive");
  const CubeShape& cube = cube_shape(soc, task.element_bytes);
  const auto es = static_cast<double>(std::max<std::size_t>(1, task.element_bytes));
  const double mte1_start = soc.fixed.mte1_start_cycles;
  TaskTiming t;
  t.task_type = "AI_CORE";
  t.block_dim = std::max(1, tiling.block_dim);
  t.waves = static_cast<int>(ceil_div(t.block_dim, soc.ai_cores));
  const int active_cores = std::min(t.block_dim, soc.ai_cores);

  const std::int64_t batch = std::max<std::int64_t>(1, tiling.batch);
  const std::int64_t mp = round_up(tiling.m, cube.m), kp = round_up(tiling.k, cube.k), np = round_up(tiling.n, cube.n);
  t.exact_flops = task.gemm ? task.gemm->flops() : 2.0 * static_cast<double>(batch) * mp * np * kp;
  t.padded_flops = 2.0 * static_cast<double>(batch) * mp * np * kp;

  const std::int64_t base_m = round_up(tiling.base_m, cube.m), base_n = round_up(tiling.base_n, cube.n);
  const std::int64_t base_k = round_up(tiling.base_k, cube.k);
  const std::int64_t tiles_m = ceil_div(round_up(tiling.block_m, cube.m), base_m);
  const std::int64_t tiles_n = ceil_div(round_up(tiling.block_n, cube.n), base_n);
  const auto tiles = static_cast<double>(tiles_m * tiles_n);
  const std::int64_t k_steps = ceil_div(kp, base_k);
  const std::int64_t last_k = kp - (k_steps - 1) * base_k;
  const std::int64_t l1_k = std::min(kp, round_up(tiling.l1_k, base_k));
  const std::int64_t chunks = ceil_div(kp, l1_k);

  // Cube: every L0C tile runs the K loop as MMADs of base_m x base_k x base_n.
  const double mmad = mmad_cycles(soc, cube, base_m, base_k, base_n);
  const double mac_block =
      tiles * (static_cast<double>(k_steps - 1) * mmad + mmad_cycles(soc, cube, base_m, last_k, base_n));

  // A convolution whose block's whole filter fits L0B keeps it there: TBE's convolution schedule
  // (te_schedule/conv_schedule.py) turns a BL0 tiling equal to the block's filter matrix into "full
  // load", loads the filter into L0B once at the block's loop (no L1 copy) and runs every M tile
  // against it. Otherwise each MMAD's B slice comes from L1 again.
  const std::int64_t block_np = round_up(tiling.block_n, cube.n);
  const bool filter_in_l0b = task.conv_filter && static_cast<double>(kp * block_np) * es <= soc.l0b_bytes;

  // MTE1: each MMAD's A and B slices from L1; A in its img2col form (the expansion happens on
  // this move, load3d), so MTE1 carries the full GEMM view.
  const double b_l0_block = filter_in_l0b
                                ? static_cast<double>(kp * block_np) * es / soc.paths.l1_to_l0b + mte1_start
                                : tiles * (static_cast<double>(kp * base_n) * es / soc.paths.l1_to_l0b +
                                           static_cast<double>(k_steps) * mte1_start);
  const double l0_bytes_block =
      tiles * static_cast<double>(base_m * kp) * es +
      (filter_in_l0b ? static_cast<double>(kp * block_np) * es : tiles * static_cast<double>(base_n * kp) * es);
  const double mte1_block = tiles * (static_cast<double>(base_m * kp) * es / soc.paths.l1_to_l0a +
                                     static_cast<double>(k_steps) * mte1_start) +
                            b_l0_block;

  // MTE2: A and B chunks of l1_k into L1. A is fetched in its raw form (a convolution's input
  // pixels, not the img2col matrix). Every tile loads its A and B chunks; when the whole K fits
  // in L1 (l1_k == K), the operand whose reuse saves more stays in L1 across the inner tile loop
  // and is loaded once per tile row (A) or column (B). A filter kept in L0B is loaded once.
  const double a_gemm = static_cast<double>(batch) * mp * kp;
  const double expansion =
      task.first_input_elements > 0 ? std::max(1.0, a_gemm / static_cast<double>(task.first_input_elements)) : 1.0;
  const double a_tile = static_cast<double>(base_m * kp) * es / expansion;  // one tile row's A, all K
  const double b_tile = static_cast<double>(kp * base_n) * es;
  const double a_chunk = a_tile / static_cast<double>(chunks);
  const double b_chunk = filter_in_l0b ? static_cast<double>(kp * block_np) * es : b_tile / static_cast<double>(chunks);
  double a_loads = tiles * static_cast<double>(chunks), b_loads = a_loads;
  if (filter_in_l0b) {
    b_loads = 1;
    if (chunks == 1) a_loads = static_cast<double>(tiles_m);
  } else if (chunks == 1) {
    if (static_cast<double>(tiles_m) * a_tile + tiles * b_tile <= static_cast<double>(tiles_n) * b_tile + tiles * a_tile)
      a_loads = static_cast<double>(tiles_m);
    else
      b_loads = static_cast<double>(tiles_n);
  }
  const double load_block = a_loads * a_chunk + b_loads * b_chunk;
  const double a_raw = task.first_input_elements > 0 ? static_cast<double>(task.first_input_elements) * es : a_gemm * es;
  const double b_raw = static_cast<double>(batch) * kp * np * es;
  const double other = std::max(0.0, static_cast<double>(task.input_elements) * es - a_raw - b_raw);  // bias, ...
  const double total_loads = load_block * t.block_dim + other;
  // Re-reads hit L2 when their reuse distance fits it. The tile loop keeps one operand's tile row
  // (or column) in use while it cycles through the other, so between two reads of the same bytes
  // the cores load at most the smaller operand once plus each core's current tiles; the larger
  // operand and the other inputs (bias, a fused residual) stream through once.
  const double reuse_window = std::min(a_raw, b_raw) + active_cores * (a_tile + b_tile);
  const Loads loads = split_loads(soc, a_raw + b_raw + other, total_loads,
                                  static_cast<double>(task.l2_resident_input_bytes), reuse_window);
  // Streaming cycles per loaded byte: first touches at the device-memory path's width, L2 hits
  // at L2's; each chunk transfer also pays the MTE2 latency (transfer_cycles).
  const double load_cycles_per_byte =
      (loads.device / soc.paths.gm_to_l1 + loads.l2 / soc.paths.l2_to_l1) / (loads.device + loads.l2);
  const double mte2_latency = soc.fixed.mte2_latency_cycles;
  const double mte2_block = a_loads * transfer_cycles(mte2_latency, a_chunk * load_cycles_per_byte) +
                            b_loads * transfer_cycles(mte2_latency, b_chunk * load_cycles_per_byte) +
                            other * load_cycles_per_byte / t.block_dim;

  // Each finished L0C tile to GM at the compute dtype: through the FixPipe, or on coupled cores
  // through UB (the vector unit's L0C -> UB move, then MTE3).
  const double out_tile = static_cast<double>(base_m * base_n) * es;
  const CubeOutputTile output_tile =
      cube_output_tile(soc, base_m * base_n, task.element_bytes, output_stays_in_l2(soc, task));
  const double store_tile = output_tile.store;
  const double store_block = tiles * store_tile;

  // A fused Vector epilogue (operators that schedule themselves, TaskInput::epilogue_passes): its
  // passes over every output tile while the tile sits in UB, between the MMADs and the store.
  const double epilogue_tile =
      task.epilogue_passes > 0 ? task.epilogue_passes * vector_instruction_cycles(soc, static_cast<std::int64_t>(out_tile)) : 0;

  const double waves = t.waves;
  const double vec_tile = epilogue_tile + output_tile.drain;
  t.pipes.vec = waves * tiles * vec_tile;
  // The operator's own FLOPs (bias adds included) floor the cube time when padding is small.
  t.pipes.mac = std::max(waves * mac_block, task.flops / (2 * cube.macs_per_cycle() * active_cores));
  t.pipes.mte1 = waves * mte1_block;
  t.pipes.mte2 = waves * mte2_block;
  double& store_pipe = soc.split ? t.pipes.fixpipe : t.pipes.mte3;
  store_pipe = waves * store_block;
  t.pipes.scalar = waves * tiles * soc.fixed.scalar_head_cycles;

  // The first A and B chunks come from device memory.
  const double first_loads = transfer_cycles(mte2_latency, a_chunk / soc.paths.gm_to_l1) +
                             transfer_cycles(mte2_latency, b_chunk / soc.paths.gm_to_l1);
  t.core_cycles = core_cycles(
      {{t.pipes.mac, mmad},
       {t.pipes.mte1, static_cast<double>(base_m * base_k) * es / soc.paths.l1_to_l0a +
                          static_cast<double>(base_k * base_n) * es / soc.paths.l1_to_l0b + 2 * mte1_start},
       {t.pipes.mte2, first_loads},
       {store_pipe, store_tile},
       {t.pipes.vec, vec_tile},
       {t.pipes.scalar, soc.fixed.scalar_head_cycles}},
      tiling.double_buffer);

  const double output_bytes = written_bytes(task);
  t.l1_in_bytes = static_cast<std::int64_t>(total_loads);
  t.l0_in_bytes = static_cast<std::int64_t>(l0_bytes_block * t.block_dim);
  t.out_bytes = static_cast<std::int64_t>(output_bytes);
  const Writes writes = split_writes(soc, output_bytes);
  finish(soc, t, t.pipes.mac, std::max(t.pipes.mte2, store_pipe), loads.device + writes.device,
         loads.l2 + writes.l2);
  const double mac_all_blocks = std::max(mac_block * t.block_dim, task.flops / (2 * cube.macs_per_cycle()));
  t.cube_utilization =
      std::min(100.0, 100.0 * mac_all_blocks / (soc.ai_cores * t.duration_us * soc.cycles_per_us()));
  return t;
}

TaskTiming time_vector(const SocConfig& soc, const TaskInput& task, const Tiling& tiling) {
  const auto es = static_cast<std::int64_t>(std::max<std::size_t>(1, task.element_bytes));
  TaskTiming t;
  t.task_type = soc.split ? "AI_VECTOR_CORE" : "AI_CORE";
  t.exact_flops = t.padded_flops = task.flops;
  t.block_dim = std::max(1, tiling.block_dim);
  t.waves = static_cast<int>(ceil_div(t.block_dim, soc.split ? soc.vector_cores : soc.ai_cores));

  const std::int64_t elements = std::max<std::int64_t>(1, tiling.elements);
  const std::int64_t block_elements = ceil_div(elements, t.block_dim);
  const std::int64_t tile = std::max<std::int64_t>(1, std::min(tiling.ub_tile_elements, block_elements));
  const std::int64_t tiles = ceil_div(block_elements, tile);
  const std::int64_t last_tile = block_elements - (tiles - 1) * tile;

  // Vector instructions per element from the cost facts (at least one pass).
  const double passes = std::max(1.0, task.flops / static_cast<double>(elements));
  const double vec_block = passes * (static_cast<double>(tiles - 1) * vector_instruction_cycles(soc, tile * es) +
                                     vector_instruction_cycles(soc, last_tile * es));

  const double input_bytes = static_cast<double>(task.input_elements * es);
  const double output_bytes = written_bytes(task);
  const Loads loads =
      split_loads(soc, input_bytes, input_bytes, static_cast<double>(task.l2_resident_input_bytes), input_bytes);
  // One MTE2 transfer per input and one MTE3 transfer per output for every tile, each paying its
  // path's latency (transfer_cycles) over an equal share of the streaming time.
  const auto loads_per_block = static_cast<double>(tiles * task.input_count);
  const auto stores_per_block = static_cast<double>(tiles * task.output_count);
  const double mte2_block = equal_transfers_cycles(
      loads_per_block, soc.fixed.mte2_latency_cycles,
      (loads.device / soc.paths.gm_to_ub + loads.l2 / soc.paths.l2_to_ub) / t.block_dim);
  const double store_width = output_stays_in_l2(soc, task) ? soc.paths.ub_to_l2 : soc.paths.ub_to_gm;
  const double mte3_block = equal_transfers_cycles(stores_per_block, soc.fixed.mte3_latency_cycles,
                                                   output_bytes / store_width / t.block_dim);

  const double waves = t.waves;
  t.pipes.vec = waves * vec_block;
  t.pipes.mte2 = waves * mte2_block;
  t.pipes.mte3 = waves * mte3_block;
  t.pipes.scalar = waves * static_cast<double>(tiles) * soc.fixed.scalar_head_cycles;

  // One tile's share of the operands (inputs smaller than the iterated one, e.g. a broadcast
  // bias, shrink it accordingly).
  const double tile_fraction = static_cast<double>(tile) / static_cast<double>(elements);
  t.core_cycles = core_cycles(
      {{t.pipes.vec, passes * vector_instruction_cycles(soc, tile * es)},
       {t.pipes.mte2, equal_transfers_cycles(task.input_count, soc.fixed.mte2_latency_cycles,
                                             input_bytes * tile_fraction / soc.paths.gm_to_ub)},
       {t.pipes.mte3, equal_transfers_cycles(task.output_count, soc.fixed.mte3_latency_cycles,
                                             output_bytes * tile_fraction / store_width)},
       {t.pipes.scalar, soc.fixed.scalar_head_cycles}},
      tiling.double_buffer);

  t.ub_in_bytes = static_cast<std::int64_t>(input_bytes);
  t.out_bytes = static_cast<std::int64_t>(output_bytes);
  const Writes writes = split_writes(soc, output_bytes);
  finish(soc, t, t.pipes.vec, std::max(t.pipes.mte2, t.pipes.mte3), loads.device + writes.device,
         loads.l2 + writes.l2);
  return t;
}

// Control-heavy operators run on the AI CPU: one operation per cycle, data read once.
TaskTiming time_scalar(const SocConfig& soc, const TaskInput& task) {
  TaskTiming t;
  t.task_type = "AI_CPU";
  t.exact_flops = t.padded_flops = task.flops;
  t.pipes.scalar = std::max(task.flops, static_cast<double>(task.largest_elements));
  t.core_cycles = t.pipes.scalar;
  const auto es = static_cast<std::int64_t>(task.element_bytes);
  finish(soc, t, t.pipes.scalar, 0, static_cast<double>(task.input_elements * es) + written_bytes(task), 0);
  return t;
}

}  // namespace

double vector_instruction_cycles(const SocConfig& soc, std::int64_t bytes) {
  const double repeats = std::ceil(static_cast<double>(bytes) / soc.vector_bytes_per_cycle);
  return std::max(repeats, soc.fixed.vector_instruction_min_cycles);
}

double mmad_cycles(const SocConfig& soc, const CubeShape& cube, std::int64_t m, std::int64_t k, std::int64_t n) {
  const double fractals = static_cast<double>(ceil_div(m, cube.m)) * static_cast<double>(ceil_div(k, cube.k)) *
                          static_cast<double>(ceil_div(n, cube.n));
  return std::max(fractals + soc.fixed.cube_instruction_overhead_cycles, soc.fixed.cube_instruction_min_cycles);
}

CubeOutputTile cube_output_tile(const SocConfig& soc, std::int64_t elements, std::size_t element_bytes, bool into_l2) {
  constexpr std::int64_t kAccumulatorBytes = 4;  // L0C holds fp32 (int32 for int8)
  const double bytes = static_cast<double>(elements) * static_cast<double>(std::max<std::size_t>(1, element_bytes));
  if (soc.split)
    return {0, transfer_cycles(soc.fixed.fixpipe_latency_cycles,
                               bytes / (into_l2 ? soc.paths.l0c_to_l2 : soc.paths.l0c_to_gm))};
  return {vector_instruction_cycles(soc, elements * kAccumulatorBytes),
          transfer_cycles(soc.fixed.mte3_latency_cycles, bytes / (into_l2 ? soc.paths.ub_to_l2 : soc.paths.ub_to_gm))};
}

bool output_stays_in_l2(const SocConfig& soc, const TaskInput& task) { return fits_l2(soc, written_bytes(task)); }

double transfer_cycles(double latency_cycles, double streaming_cycles) {
  return std::hypot(latency_cycles, streaming_cycles);
}

const CubeShape& cube_shape(const SocConfig& soc, std::size_t element_bytes) {
  if (element_bytes == 1) return soc.cube_int8;
  if (element_bytes == 4 && soc.cube_fp32) return *soc.cube_fp32;
  return soc.cube_fp16;
}

TaskTiming time_task(const SocConfig& soc, const TaskInput& task, const Tiling& tiling) {
  switch (task.unit) {
    case ComputeUnit::Cube:
      return time_cube(soc, task, tiling);
    case ComputeUnit::Scalar:
      return time_scalar(soc, task);
    case ComputeUnit::Vector:
    case ComputeUnit::None:
      break;
  }
  return time_vector(soc, task, tiling);
}

}  // namespace asc::npusim
