#include "tiling.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

namespace asc::npusim {
namespace {

constexpr std::int64_t kBuffers = 2;           // double buffering: one tile in use, one loading
constexpr std::int64_t kAccumulatorBytes = 4;  // L0C accumulates in fp32 (int32 for int8)
constexpr std::int64_t kBlockAlignBytes = 32;  // UB and GM transfers move 32-byte blocks

std::int64_t tiling_round_up(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}
std::int64_t tiling_ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The GEMM a cube task performs; without readable shapes, a cube with the cost facts' work.
GemmDims cube_problem(const TaskInput& task) {
  if (task.gemm) return *task.gemm;
  const auto side = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::cbrt(std::max(task.flops / 2, 1.0))));
  return GemmDims{1, side, side, side};
}

// L0 tile sizes worth trying along one dimension of a block of `extent` (a fractal multiple):
// powers of two (the shapes hand-written Ascend C matmuls use) and the sizes that split the
// block evenly into 1..4 tiles (no padded tile at the edge).
std::set<std::int64_t> tile_sizes(std::int64_t extent, std::int64_t fractal) {
  std::set<std::int64_t> sizes{extent};
  for (std::int64_t size = fractal; size < extent; size *= 2) sizes.insert(size);
  for (std::int64_t parts = 2; parts <= 4; ++parts) sizes.insert(tiling_round_up(tiling_ceil_div(extent, parts), fractal));
  return sizes;
}

// The L0 tile for one block: the tile whose estimated block time (busiest pipe per
// tile, operands from L2) is lowest among those that fit L0A, L0B and L0C twice.
void choose_l0(const SocConfig& soc, const CubeShape& cube, std::int64_t kp, std::int64_t es,
                      double expansion, bool output_in_l2, Tiling& t) {
  double best = -1;
  for (const std::int64_t bm : tile_sizes(t.block_m, cube.m))
    for (const std::int64_t bn : tile_sizes(t.block_n, cube.n)) {
      if (kBuffers * bm * bn * kAccumulatorBytes > soc.l0c_bytes) continue;
      const std::int64_t k_fit = std::min(soc.l0a_bytes / (kBuffers * bm * es), soc.l0b_bytes / (kBuffers * bn * es));
      const std::int64_t bk = std::min(kp, k_fit / cube.k * cube.k);
      if (bk < cube.k || kBuffers * (bm + bn) * bk * es > soc.l1_bytes) continue;
      // Per tile: MMADs, MTE1 slices, MTE2 chunks (from L2) and the output tile's way out
      // (cube_output_tile), each with its per-instruction or per-transfer cost.
      const auto tiles = static_cast<double>(tiling_ceil_div(t.block_m, bm) * tiling_ceil_div(t.block_n, bn));
      const std::int64_t steps = tiling_ceil_div(kp, bk);
      const auto k_steps = static_cast<double>(steps);
      const double mac = static_cast<double>(steps - 1) * mmad_cycles(soc, cube, bm, bk, bn) +
                         mmad_cycles(soc, cube, bm, kp - (steps - 1) * bk, bn);
      const double mte1 = static_cast<double>(bm * kp * es) / soc.paths.l1_to_l0a +
                          static_cast<double>(kp * bn * es) / soc.paths.l1_to_l0b +
                          2 * k_steps * soc.fixed.mte1_start_cycles;
      const double load =
          transfer_cycles(soc.fixed.mte2_latency_cycles, static_cast<double>(bm) / expansion * kp * es / soc.paths.l2_to_l1) +
          transfer_cycles(soc.fixed.mte2_latency_cycles, static_cast<double>(bn * kp * es) / soc.paths.l2_to_l1);
      const CubeOutputTile output = cube_output_tile(soc, bm * bn, static_cast<std::size_t>(es), output_in_l2);
      const double estimate =
          tiles * (std::max({mac, mte1, load, output.store, output.drain}) + soc.fixed.scalar_head_cycles);
      if (best < 0 || estimate < best) {
        best = estimate;
        t.base_m = bm;
        t.base_n = bn;
        t.base_k = bk;
      }
    }
  if (best < 0)
    throw Error(ErrorCode::Internal, "SoC " + soc.name + ": no cube tile of one fractal fits L0A/L0B/L0C/L1 twice");
  t.l0a_bytes = kBuffers * t.base_m * t.base_k * es;
  t.l0b_bytes = kBuffers * t.base_k * t.base_n * es;
  t.l0c_bytes = kBuffers * t.base_m * t.base_n * kAccumulatorBytes;
}

// L1 depths worth trying: the whole K when both slices fit twice (the resident operand is then
// reused across tiles), and base_k multiples that fit (deeper chunks mean fewer transfers, but
// a longer wait for the first one).
std::vector<std::int64_t> l1_depths(const SocConfig& soc, std::int64_t kp, std::int64_t es, const Tiling& t) {
  const std::int64_t row_bytes = kBuffers * (t.base_m + t.base_n) * es;
  std::vector<std::int64_t> depths;
  if (row_bytes * kp <= soc.l1_bytes) depths.push_back(kp);
  const std::int64_t deepest = std::min(kp - 1, soc.l1_bytes / (row_bytes * t.base_k) * t.base_k);
  for (std::int64_t depth = t.base_k; depth <= deepest; depth *= 2) depths.push_back(depth);
  if (deepest >= t.base_k && depths.back() != deepest) depths.push_back(deepest);
  return depths;
}

Tiling cube_tiling(const SocConfig& soc, const TaskInput& task) {
  const CubeShape& cube = cube_shape(soc, task.element_bytes);
  const auto es = static_cast<std::int64_t>(std::max<std::size_t>(1, task.element_bytes));
  const GemmDims g = cube_problem(task);
  const std::int64_t k = std::max(g.k, g.device_k);  // the K the cube runs, layout padding included
  const std::int64_t mp = tiling_round_up(g.m, cube.m), kp = tiling_round_up(k, cube.k), np = tiling_round_up(g.n, cube.n);
  const double a_gemm = static_cast<double>(g.batch) * mp * kp;
  const double expansion =
      task.first_input_elements > 0 ? std::max(1.0, a_gemm / static_cast<double>(task.first_input_elements)) : 1.0;

  Tiling base;
  base.batch = g.batch;
  base.m = g.m;
  base.k = k;
  base.n = g.n;
  Tiling best;
  double best_us = -1;
  std::set<std::pair<std::int64_t, std::int64_t>> tried;
  // Every split of one product's output into split_m x split_n blocks with at most one block
  // per core, timed by the model.
  for (std::int64_t split_m = 1; split_m <= std::min<std::int64_t>(soc.ai_cores, mp / cube.m); ++split_m)
    for (std::int64_t split_n = 1; split_m * split_n <= soc.ai_cores && split_n <= np / cube.n; ++split_n) {
      Tiling t = base;
      t.block_m = tiling_round_up(tiling_ceil_div(mp, split_m), cube.m);
      t.block_n = tiling_round_up(tiling_ceil_div(np, split_n), cube.n);
      if (!tried.insert({t.block_m, t.block_n}).second) continue;
      t.block_dim = static_cast<int>(g.batch * tiling_ceil_div(mp, t.block_m) * tiling_ceil_div(np, t.block_n));
      choose_l0(soc, cube, kp, es, expansion, output_stays_in_l2(soc, task), t);
      for (const std::int64_t depth : l1_depths(soc, kp, es, t)) {
        t.l1_k = depth;
        t.l1_bytes = kBuffers * (t.base_m + t.base_n) * depth * es;
        const double us = time_task(soc, task, t).duration_us;
        if (best_us < 0 || us < best_us) {
          best_us = us;
          best = t;
        }
      }
    }
  return best;
}

Tiling vector_tiling(const SocConfig& soc, const TaskInput& task) {
  const auto es = static_cast<std::int64_t>(std::max<std::size_t>(1, task.element_bytes));
  const std::int64_t align = std::max<std::int64_t>(1, kBlockAlignBytes / es);
  const int cores = soc.split ? soc.vector_cores : soc.ai_cores;
  Tiling t;
  t.elements = std::max<std::int64_t>(1, task.largest_elements);
  // Blocks of at least one vector repeat: a smaller share per core saves nothing, since an
  // instruction costs its minimum cycles anyway.
  const auto repeat = std::max(align, static_cast<std::int64_t>(soc.vector_bytes_per_cycle) / es);
  const std::int64_t blocks = std::clamp<std::int64_t>(tiling_ceil_div(t.elements, repeat), 1, cores);
  const std::int64_t block_elements = tiling_round_up(tiling_ceil_div(t.elements, blocks), align);
  t.block_dim = static_cast<int>(tiling_ceil_div(t.elements, block_elements));

  // UB holds one tile of every operand, twice; operators with so many operands that two copies
  // do not fit run single-buffered.
  const std::int64_t operands = task.input_count + task.output_count;
  std::int64_t tile_bytes = soc.ub_bytes / (kBuffers * operands) / kBlockAlignBytes * kBlockAlignBytes;
  if (tile_bytes < kBlockAlignBytes) {
    t.double_buffer = false;
    tile_bytes = soc.ub_bytes / operands / kBlockAlignBytes * kBlockAlignBytes;
  }
  if (tile_bytes < kBlockAlignBytes)
    throw Error(ErrorCode::Internal, "SoC " + soc.name + ": UB (" + std::to_string(soc.ub_bytes) + " bytes) cannot hold " +
                                         std::to_string(operands) + " operands of one 32-byte block");
  t.ub_tile_elements = std::min(tile_bytes / es, block_elements);
  t.tiles_per_block = tiling_ceil_div(block_elements, t.ub_tile_elements);
  t.ub_bytes = (t.double_buffer ? kBuffers : 1) * operands * t.ub_tile_elements * es;
  return t;
}

}  // namespace

Tiling choose_tiling(const SocConfig& soc, const TaskInput& task) {
  switch (task.unit) {
    case ComputeUnit::Cube:
      return cube_tiling(soc, task);
    case ComputeUnit::Vector:
      return vector_tiling(soc, task);
    case ComputeUnit::Scalar:
    case ComputeUnit::None:
      break;
  }
  return Tiling{};  // AI CPU tasks and metadata-only nodes use no AI core buffers
}

}  // namespace asc::npusim
