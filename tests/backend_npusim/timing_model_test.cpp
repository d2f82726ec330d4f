// The timing model against the msKPP micro-benchmarks (npu_hardware_and_simulators.md §2.4) and
// against pipe times computed by hand from the chosen tiling and the SoC's path widths.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>
#include <cmath>

#include "compiler/tiling.hpp"
#include "npusim_support.hpp"

using namespace asc;
using namespace asc::test;
using asc::npusim::choose_tiling;
using asc::npusim::GemmDims;
using asc::npusim::TaskInput;
using asc::npusim::Tiling;
using asc::npusim::time_task;

namespace {

TaskInput gemm_task(std::int64_t m, std::int64_t n, std::int64_t k) {
  TaskInput task;
  task.unit = ComputeUnit::Cube;
  task.gemm = GemmDims{1, m, n, k};
  task.flops = 2.0 * m * n * k;
  task.input_elements = m * k + k * n;
  task.first_input_elements = m * k;
  task.output_elements = m * n;
  task.largest_elements = std::max({m * k, k * n, m * n});
  task.input_count = 2;
  task.element_bytes = 2;
  return task;
}

TaskInput vector_add(std::int64_t elements) {
  TaskInput task;
  task.unit = ComputeUnit::Vector;
  task.flops = static_cast<double>(elements);
  task.input_elements = 2 * elements;
  task.output_elements = elements;
  task.largest_elements = elements;
  task.input_count = 2;
  task.element_bytes = 2;
  return task;
}

npusim::TaskTiming timed(const npusim::SocConfig& s, const TaskInput& task) {
  return time_task(s, task, choose_tiling(s, task));
}

npusim::SocConfig one_core(const std::string& name) {
  npusim::SocConfig s = soc(name);
  s.ai_cores = s.vector_cores = 1;
  return s;
}

// Fraction of one core's fp16 cube peak a GEMM reaches.
double cube_fraction(const npusim::SocConfig& s, const TaskInput& task, const npusim::TaskTiming& t) {
  return task.flops / (2.0 * s.cube_fp16.macs_per_cycle() * s.ai_cores * s.clock_mhz) / t.duration_us;
}

}  // namespace

// msKPP (resource910b.cpp, MMAD_FP16_FP16_FP32_1_core_910b1): MMAD fp16 -> fp32 on one 910B1
// core at m32 k16, against a peak of 8192 ops/cycle (ops = 2 x MACs): 8066 at n1024, 7258 at n128,
// 6686 at n64, 5445 at n32 and 3370 at n16. The model's MMAD is one cycle per 16x16x16 fractal
// plus a 2-cycle issue cost, never under 4.86 cycles: the n16 figure (2 fractals) is the minimum,
// the others are predictions.
TEST_CASE("MMAD throughput matches msKPP from n16 to n1024, small MMADs included") {
  const npusim::SocConfig s = soc("Ascend910B1");
  const auto ops_per_cycle = [&](std::int64_t n) {
    return 2.0 * 32 * 16 * n / npusim::mmad_cycles(s, s.cube_fp16, 32, 16, n);
  };
  CHECK(ops_per_cycle(1024) == doctest::Approx(8066).epsilon(0.005));
  CHECK(ops_per_cycle(128) == doctest::Approx(7258).epsilon(0.01));
  CHECK(ops_per_cycle(64) == doctest::Approx(6686).epsilon(0.025));
  CHECK(ops_per_cycle(32) == doctest::Approx(5445).epsilon(0.01));
  CHECK(ops_per_cycle(16) == doctest::Approx(3370).epsilon(0.005));
  CHECK(ops_per_cycle(16) < 4096);  // the one-cycle-per-fractal-plus-2 rule alone would give 4096
}

// msKPP's 910b3 table (m16 k16): 327.9 ops/cycle at n16, 3358.7 at n256, 6945 at n2048: a 23-cycle
// issue cost per MMAD on that part (the SoC file's figures).
TEST_CASE("MMAD throughput on the 910B3 matches msKPP's m16 k16 table") {
  const npusim::SocConfig s = soc("Ascend910B3");
  const auto ops_per_cycle = [&](std::int64_t n) {
    return 2.0 * 16 * 16 * n / npusim::mmad_cycles(s, s.cube_fp16, 16, 16, n);
  };
  CHECK(ops_per_cycle(16) == doctest::Approx(327.9).epsilon(0.005));
  CHECK(ops_per_cycle(256) == doctest::Approx(3358.7).epsilon(0.005));
  CHECK(ops_per_cycle(2048) == doctest::Approx(6945).epsilon(0.005));
}

// msKPP's measured per-transfer bandwidth on one 910B1 core (resource910b.cpp; bursts x 1 KiB,
// GiB/s, converted at its 1.8 GHz): GM->UB 7.29 GiB/s at 1 KiB, 42.7 at 8 KiB, 77.05 at 64 KiB
// (asymptote 78.6 = 46.9 B/cycle); UB->GM 11.39 at 1 KiB, 86.85 at 16 KiB, 110.66 at 64 KiB
// (66.0 B/cycle); L0C->GM 20.78 at 1 KiB, 201.33 at 32 KiB (126.1 B/cycle). With each curve's
// asymptote as the width, the SoC file's latencies reproduce the curves: small transfers are
// latency-bound, large ones bandwidth-bound.
TEST_CASE("DMA transfer cycles follow msKPP's bandwidth-against-size curves (910B1)") {
  const npusim::SocConfig s = soc("Ascend910B1");
  const auto measured_cycles = [](double kib, double gib_per_s) {
    return kib * 1024 / (gib_per_s * 1073741824.0 / 1.8e9);
  };
  const auto model_cycles = [](double latency, double kib, double bytes_per_cycle) {
    return npusim::transfer_cycles(latency, kib * 1024 / bytes_per_cycle);
  };
  CHECK(npusim::transfer_cycles(3, 4) == doctest::Approx(5));  // sqrt(latency^2 + streaming^2)
  const double mte2 = s.fixed.mte2_latency_cycles, mte3 = s.fixed.mte3_latency_cycles;
  const double fixpipe = s.fixed.fixpipe_latency_cycles;
  CHECK(model_cycles(mte2, 1, 46.9) == doctest::Approx(measured_cycles(1, 7.294)).epsilon(0.15));
  CHECK(model_cycles(mte2, 8, 46.9) == doctest::Approx(measured_cycles(8, 42.74)).epsilon(0.05));
  CHECK(model_cycles(mte2, 64, 46.9) == doctest::Approx(measured_cycles(64, 77.05)).epsilon(0.02));
  CHECK(model_cycles(mte3, 1, 66.0) == doctest::Approx(measured_cycles(1, 11.39)).epsilon(0.15));
  CHECK(model_cycles(mte3, 16, 66.0) == doctest::Approx(measured_cycles(16, 86.85)).epsilon(0.06));
  CHECK(model_cycles(mte3, 64, 66.0) == doctest::Approx(measured_cycles(64, 110.66)).epsilon(0.02));
  CHECK(model_cycles(fixpipe, 1, 126.1) == doctest::Approx(measured_cycles(1, 20.78)).epsilon(0.15));
  CHECK(model_cycles(fixpipe, 32, 126.1) == doctest::Approx(measured_cycles(32, 201.33)).epsilon(0.03));
  // A 1 KiB load reaches a tenth of the path's width; a 64 KiB one 99 %.
  CHECK(1024 / model_cycles(mte2, 1, 32) / 32 < 0.15);
  CHECK(65536 / model_cycles(mte2, 64, 32) / 32 > 0.98);
}

// The transfer cost inside a task, by hand: a 2048-element fp16 Add on one 910B1 vector core is
// one UB tile, so MTE2 moves each 4 KiB input in one transfer (128 streaming cycles at 32 B/cycle
// from device memory, plus the 266-cycle latency: hypot = 295.2) and MTE3 the 4 KiB output in
// one (hypot(169, 128) = 212.0): the Add runs at 4096 / 295.2 = 13.9 B/cycle per input, well
// under the path's 32.
TEST_CASE("a small vector task's loads and stores pay the per-transfer latency") {
  const npusim::SocConfig s = one_core("Ascend910B1");
  const auto t = timed(s, vector_add(2048));
  REQUIRE(t.block_dim == 1);
  CHECK(t.pipes.mte2 == doctest::Approx(2 * std::hypot(266.0, 128.0)));
  CHECK(t.pipes.mte3 == doctest::Approx(std::hypot(169.0, 128.0)));
  CHECK(t.pipes.mte2 > t.pipes.vec);  // 16 repeats of vector work hide under the loads
}

// A GEMM whose operand loads hide under the cube: K = 512 lets the A row panel stay in L1 while
// the B slices stream past it, so the cube is the busiest pipe. msKPP's 98.5 % is the MMAD-level
// ceiling at 128 fractal cycles per instruction; the model's 128x128x128 MMADs (512 cycles) pay
// the same 2-cycle issue cost (99.6 %), and pipeline fill and drain plus the launch cost take
// well under 1 % of a millisecond-long task: the result must sit within 1.5 points of 98.5 %.
TEST_CASE("a large fp16 GEMM on one core reaches ~98% of the cube peak (msKPP)") {
  for (const std::string name : {"Ascend910B1", "Ascend910", "Ascend310P3"}) {
    CAPTURE(name);
    const npusim::SocConfig s = one_core(name);
    const TaskInput task = gemm_task(4096, 4096, 512);
    const auto t = timed(s, task);
    const double fraction = cube_fraction(s, task, t);
    MESSAGE(name << ": 4096x512x4096 fp16 GEMM on one core: " << t.duration_us << " us, " << 100 * fraction
                 << " % of peak");
    CHECK(t.block_dim == 1);
    CHECK(fraction == doctest::Approx(0.985).epsilon(0.015));
    CHECK(t.pipes.mac > std::max({t.pipes.mte1, t.pipes.mte2, t.pipes.fixpipe}));
    CHECK(t.padded_flops == t.exact_flops);  // no padding at multiples of 16
  }
}

// Where the loads do not hide: with K = 4096 only a chunk of K fits in L1, so every L0C tile
// re-reads its A and B chunks; on the 910B1 the double-buffered 128 KiB L0C limits the tile to
// 128x128, which needs 256 x 32 bytes per 16-deep step from L2 (110 B/cycle: 74.5 cycles)
// against 64 cube cycles. The MTE2 pipe is computed here by hand from the tiling: every tile
// loads its A and B chunks (base x l1_k fp16 each), streaming at the mix of first touches from
// HBM (32 B/cycle) and re-reads from L2 (110 B/cycle), each transfer paying the MTE2 latency.
TEST_CASE("a 4096^3 GEMM on one 910B1 core is MTE2-bound, by the hand-computed load time") {
  const npusim::SocConfig s = one_core("Ascend910B1");
  const TaskInput task = gemm_task(4096, 4096, 4096);
  const Tiling tiling = choose_tiling(s, task);
  const auto t = time_task(s, task, tiling);
  REQUIRE(tiling.base_m * tiling.base_n == 128 * 128);
  REQUIRE(tiling.l1_k < 4096);
  REQUIRE(4096 % tiling.l1_k == 0);
  const double tiles = (4096.0 / tiling.base_m) * (4096.0 / tiling.base_n);
  const double loads = tiles * (tiling.base_m + tiling.base_n) * 4096.0 * 2;  // bytes into L1
  const double first_touch = 2 * 4096.0 * 4096 * 2;                          // A and B from HBM
  const double cycles_per_byte =
      (first_touch / s.paths.gm_to_l1 + (loads - first_touch) / s.paths.l2_to_l1) / loads;
  const double chunk_loads = tiles * (4096.0 / tiling.l1_k);  // of A, and as many of B
  const double latency = s.fixed.mte2_latency_cycles;
  const double mte2 =
      chunk_loads * (std::hypot(latency, tiling.base_m * tiling.l1_k * 2.0 * cycles_per_byte) +
                     std::hypot(latency, tiling.l1_k * tiling.base_n * 2.0 * cycles_per_byte));
  CHECK(t.pipes.mte2 == doctest::Approx(mte2).epsilon(1e-9));
  CHECK(t.pipes.mte2 > t.pipes.mac);
  const double fraction = cube_fraction(s, task, t);
  MESSAGE("4096^3 on one 910B1 core: " << 100 * fraction << " % of peak (MTE2-bound)");
  CHECK(fraction == doctest::Approx(4096.0 * 4096 * 4096 / 4096 / mte2).epsilon(0.01));
}

// msKPP VADD fp16 on 910B1: 128 elements at 42.3 elements/cycle, 384 at 126.6, 24576 at 127.98.
// The 128-element figure fixes the 3.03-cycle instruction minimum; the others are predictions
// (one 256-byte repeat per cycle), within msKPP's 3 significant digits.
TEST_CASE("fp16 vector add: ~128 elements/cycle on long data, ~42 on one 128-element repeat (msKPP)") {
  const npusim::SocConfig s = soc("Ascend910B1");
  CHECK(128.0 / npusim::vector_instruction_cycles(s, 128 * 2) == doctest::Approx(42.3).epsilon(0.005));
  CHECK(384.0 / npusim::vector_instruction_cycles(s, 384 * 2) == doctest::Approx(126.6).epsilon(0.02));
  CHECK(24576.0 / npusim::vector_instruction_cycles(s, 24576 * 2) == doctest::Approx(127.98).epsilon(0.005));

  // A whole Add task of one repeat: one block, one tile, one 3.03-cycle instruction.
  const auto single = timed(s, vector_add(128));
  CHECK(single.block_dim == 1);
  CHECK(128.0 / single.pipes.vec == doctest::Approx(42.3).epsilon(0.005));

  // A 4M-element Add: every vector core's pipe sustains ~128 elements/cycle; only a tile's
  // partial last repeat keeps it under 128.
  const std::int64_t elements = 4 << 20;
  const auto t = timed(s, vector_add(elements));
  CHECK(t.block_dim == s.vector_cores);
  const double per_core_per_cycle = static_cast<double>(elements) / t.block_dim / t.pipes.vec;
  MESSAGE("4M-element fp16 Add on 910B1: " << t.duration_us << " us, vec pipe " << per_core_per_cycle
                                           << " elements/cycle/core");
  CHECK(per_core_per_cycle == doctest::Approx(128).epsilon(0.005));
  CHECK(per_core_per_cycle <= 128);
  CHECK(t.task_type == "AI_VECTOR_CORE");
  CHECK(t.memory_copy_us > 0);  // an Add moves 6 bytes per element: memory-bound
}

// A generator (RandomNormal-like: no inputs) makes no MTE2 transfer; its one 2 KiB output is one
// MTE3 transfer: hypot(169, 2048 / 32) = 180.7 cycles.
TEST_CASE("a vector task without inputs makes no loads") {
  TaskInput task = vector_add(1024);
  task.input_count = 0;
  task.input_elements = 0;
  const auto t = timed(one_core("Ascend910B1"), task);
  CHECK(t.pipes.mte2 == 0);
  CHECK(t.pipes.mte3 == doctest::Approx(std::hypot(169.0, 64.0)));
  CHECK(std::isfinite(t.duration_us));
}

TEST_CASE("cube padding: a 1x2048x1000 MatMul pads M to 16 and N to 1008") {
  const auto t = timed(soc("Ascend310P3"), gemm_task(1, 1000, 2048));
  CHECK(t.exact_flops == 2.0 * 1 * 1000 * 2048);
  CHECK(t.padded_flops == 2.0 * 16 * 1008 * 2048);
}

TEST_CASE("L2 hit: an input the previous task left in L2 is not read from device memory") {
  const npusim::SocConfig s = soc("Ascend910");
  TaskInput cold = vector_add(1 << 20);
  TaskInput warm = cold;
  warm.l2_resident_input_bytes = (1 << 20) * 2;  // one of the two inputs
  const auto a = timed(s, cold);
  const auto b = timed(s, warm);
  CHECK(a.device_memory_bytes - b.device_memory_bytes == (1 << 20) * 2);
  // L2 serves the resident input, and takes the 2 MiB output (it fits: written back later).
  CHECK(a.l2_bytes == (1 << 20) * 2);
  CHECK(b.l2_bytes == (1 << 20) * 2 + (1 << 20) * 2);
  CHECK(b.duration_us < a.duration_us);
}

// A task's stores run at the path's L2 write width when its output stays in L2 (it fits), at the
// device-memory width when it streams out: the 310P's hardware_info gives ub_to_l2_rate 114 and
// ub_to_ddr_rate 17 bytes/cycle. Per block, one MTE3 transfer per tile paying the 169-cycle
// latency over its share of the streaming time; hand-computed from the chosen tiling.
TEST_CASE("stores into L2 run at the L2 write width, stores to device memory at the DDR width") {
  const npusim::SocConfig s = soc("Ascend310P3");
  for (const std::int64_t elements : {std::int64_t{1} << 20, std::int64_t{1} << 24}) {  // 2 MiB, 32 MiB out
    CAPTURE(elements);
    const TaskInput task = vector_add(elements);
    const Tiling tiling = choose_tiling(s, task);
    const auto t = time_task(s, task, tiling);
    const double bytes = 2.0 * static_cast<double>(elements);
    const double width = bytes <= static_cast<double>(s.l2_bytes) ? 114.0 : 17.0;
    CHECK(width == (elements == (1 << 20) ? s.paths.ub_to_l2 : s.paths.ub_to_gm));
    const std::int64_t block_elements = (elements + tiling.block_dim - 1) / tiling.block_dim;
    const std::int64_t tile = std::min(tiling.ub_tile_elements, block_elements);
    const auto tiles = static_cast<double>((block_elements + tile - 1) / tile);
    const double stream = bytes / width / tiling.block_dim;
    CHECK(t.pipes.mte3 == doctest::Approx(t.waves * tiles * std::hypot(169.0, stream / tiles)));
  }
}

// TBE's convolution schedule keeps a block's whole filter in L0B when it fits (conv_schedule.py:
// BL0 "full load"), so the M tiles do not move it again. A 1024 x 64 x 64 convolution GEMM in four
// 256-row tiles on one 310P3 core: MTE1 moves A (256 x 64 fp16, 64 cycles at 512 B/cycle, plus the
// 26-cycle start) per tile, and B (64 x 64 fp16, 32 cycles at 256 B/cycle, plus the start) per tile
// for a MatMul's B, once for a convolution's filter.
TEST_CASE("a convolution's filter that fits L0B is moved into it once per block") {
  const npusim::SocConfig s = soc("Ascend310P3");
  TaskInput task = gemm_task(1024, 64, 64);
  Tiling t;
  t.block_dim = 1;
  t.m = t.block_m = 1024;
  t.k = t.l1_k = t.base_k = 64;
  t.n = t.block_n = t.base_n = 64;
  t.base_m = 256;
  const auto reloaded = time_task(s, task, t);
  CHECK(reloaded.pipes.mte1 == doctest::Approx(4 * ((64 + 26) + (32 + 26))));
  CHECK(reloaded.l0_in_bytes == 4 * (256 + 64) * 64 * 2);
  task.conv_filter = true;
  const auto resident = time_task(s, task, t);
  CHECK(resident.pipes.mte1 == doctest::Approx(4 * (64 + 26) + (32 + 26)));
  CHECK(resident.l0_in_bytes == 4 * 256 * 64 * 2 + 64 * 64 * 2);
}

// A Cast computes at the dtype it reads and writes another: an fp32 -> fp16 Cast of 16 Mi
// elements (too large for L2) reads 64 MiB from device memory and writes 32 MiB there, not 64.
TEST_CASE("a task's outputs are written at their own dtype, not the compute dtype") {
  const npusim::SocConfig s = soc("Ascend310P3");
  const std::int64_t elements = std::int64_t{1} << 24;
  TaskInput cast;
  cast.unit = ComputeUnit::Vector;
  cast.flops = static_cast<double>(elements);
  cast.input_elements = cast.output_elements = cast.largest_elements = elements;
  cast.element_bytes = 4;
  const auto as_compute = timed(s, cast);
  CHECK(as_compute.device_memory_bytes == elements * 4 + elements * 4);
  cast.output_bytes = elements * 2;
  const auto as_written = timed(s, cast);
  CHECK(as_written.device_memory_bytes == elements * 4 + elements * 2);
  CHECK(as_written.out_bytes == elements * 2);
  CHECK(as_written.duration_us < as_compute.duration_us);
}

// Double buffering: the busiest pipe plus one unit of every other pipe; single buffering: the
// sum of the pipes.
TEST_CASE("double buffering overlaps the pipes; single buffering adds them up") {
  const npusim::SocConfig s = soc("Ascend310P3");
  const TaskInput task = vector_add(1 << 20);
  Tiling tiling = choose_tiling(s, task);
  REQUIRE(tiling.double_buffer);
  const auto overlapped = time_task(s, task, tiling);
  tiling.double_buffer = false;
  const auto serial = time_task(s, task, tiling);
  const auto& p = serial.pipes;
  CHECK(serial.core_cycles == doctest::Approx(p.vec + p.mte2 + p.mte3 + p.scalar));
  CHECK(overlapped.core_cycles < serial.core_cycles);
  CHECK(overlapped.core_cycles > std::max({p.vec, p.mte2, p.mte3, p.scalar}));
}

// More blocks than cores run in waves: twice the blocks of the same size take twice the pipe
// time on the busiest core.
TEST_CASE("blocks beyond the core count run in waves") {
  const npusim::SocConfig s = soc("Ascend310P3");
  TaskInput task = gemm_task(64, 64, 256);
  Tiling tiling = choose_tiling(s, task);
  tiling.batch = task.gemm->batch = s.ai_cores;
  tiling.block_m = tiling.block_n = 64;
  tiling.block_dim = s.ai_cores;
  const auto one_wave = time_task(s, task, tiling);
  tiling.batch = task.gemm->batch = 2 * s.ai_cores;
  tiling.block_dim = 2 * s.ai_cores;
  const auto two_waves = time_task(s, task, tiling);
  CHECK(one_wave.waves == 1);
  CHECK(two_waves.waves == 2);
  CHECK(two_waves.pipes.mte1 == doctest::Approx(2 * one_wave.pipes.mte1));
  CHECK(two_waves.pipes.mte3 == doctest::Approx(2 * one_wave.pipes.mte3));  // 310P3 stores through UB
}

// A cube tile leaves a split core (910B) through the FixPipe, a coupled core (310P, no FixPipe)
// through UB: the vector unit moves the fp32 accumulators from L0C (one repeat per 256 bytes) and
// MTE3 writes the fp16 tile. The 256x256 fp16 result (128 KiB) fits L2, so the stores run at the
// path's L2 write width (GE ATT's L0C->L2 86 B/cycle on the 910B, the 310P's ub_to_l2_rate 114).
// Hand-computed from the tiling and the SoC files.
TEST_CASE("cube output tiles leave through the FixPipe on split cores, through UB on coupled ones") {
  const TaskInput task = gemm_task(256, 256, 256);
  for (const std::string name : {"Ascend910B3", "Ascend310P3"}) {
    CAPTURE(name);
    const npusim::SocConfig s = soc(name);
    REQUIRE(256 * 256 * 2 <= s.l2_bytes);
    const Tiling tiling = choose_tiling(s, task);
    const auto t = time_task(s, task, tiling);
    const std::int64_t tile = tiling.base_m * tiling.base_n;
    const double tiles = std::ceil(static_cast<double>(tiling.block_m) / tiling.base_m) *
                         std::ceil(static_cast<double>(tiling.block_n) / tiling.base_n) * t.waves;
    if (s.split) {
      const double store = std::hypot(s.fixed.fixpipe_latency_cycles, 2.0 * tile / s.paths.l0c_to_l2);
      CHECK(t.pipes.fixpipe == doctest::Approx(tiles * store));
      CHECK(t.pipes.mte3 == 0);
      CHECK(t.pipes.vec == 0);
    } else {
      const double store = std::hypot(s.fixed.mte3_latency_cycles, 2.0 * tile / s.paths.ub_to_l2);
      CHECK(t.pipes.mte3 == doctest::Approx(tiles * store));
      CHECK(t.pipes.fixpipe == 0);
      CHECK(t.pipes.vec == doctest::Approx(tiles * std::ceil(4.0 * tile / s.vector_bytes_per_cycle)));
    }
  }
}

TEST_CASE("a cube tiling without tile sizes is an internal error, not a division by zero") {
  CHECK_THROWS_AS(time_task(soc("Ascend910"), gemm_task(64, 64, 64), Tiling{}), Error);
}
