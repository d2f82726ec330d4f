// The timing model against the msKPP micro-benchmarks (npu_hardware_and_simulators.md §2.4) and
// against hand-computed padding and L2 behaviour.
#include <doctest/doctest.h>

#include "npusim_support.hpp"
#include "timing_model.hpp"

using namespace asc;
using namespace asc::test;
using asc::npusim::GemmDims;
using asc::npusim::TaskInput;
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

}  // namespace

// msKPP measured 98.5 % of peak for one 128-cycle MMAD (2 cycles of issue cost); the model's
// 128x256x64 MMADs take 512 cycles with the same 2-cycle cost, plus MTE fill and launch.
TEST_CASE("a 4096^3 fp16 GEMM on one 910B1 core reaches >= 98% of the cube peak") {
  npusim::SocConfig one_core = soc("Ascend910B1");
  one_core.ai_cores = 1;
  const auto t = time_task(one_core, gemm_task(4096, 4096, 4096));
  CHECK(t.block_dim == 1);
  const double peak_flops_per_us = 2.0 * 4096 * one_core.clock_mhz;  // one core, fp16
  const double fraction = 2.0 * 4096.0 * 4096 * 4096 / peak_flops_per_us / t.duration_us;
  MESSAGE("4096^3 fp16 GEMM, one 910B1 core: " << t.duration_us << " us, " << 100 * fraction << " % of peak");
  CHECK(fraction >= 0.98);
  CHECK(fraction < 1.0);
  CHECK(fraction == doctest::Approx(512.0 / 514.0).epsilon(0.002));
  CHECK(t.padded_flops == t.exact_flops);  // no padding at multiples of 16
}

TEST_CASE("fp16 vector add: ~128 elements/cycle on long data, ~42 on one 128-element repeat (msKPP)") {
  const npusim::SocConfig s = soc("Ascend910B1");
  CHECK(128.0 / npusim::vector_instruction_cycles(s, 128 * 2) == doctest::Approx(42.3).epsilon(0.01));
  CHECK(384.0 / npusim::vector_instruction_cycles(s, 384 * 2) == doctest::Approx(126.6).epsilon(0.02));
  CHECK(24576.0 / npusim::vector_instruction_cycles(s, 24576 * 2) == doctest::Approx(127.98).epsilon(0.01));

  // A whole Add task over 4M elements: the vector pipe sustains ~128 elements/cycle per core.
  const std::int64_t elements = 4 << 20;
  const auto t = time_task(s, vector_add(elements));
  const double per_core_per_cycle = static_cast<double>(elements) / t.block_dim / t.pipes.vec;
  MESSAGE("4M-element fp16 Add on 910B1: " << t.duration_us << " us, block dim " << t.block_dim << ", vec pipe "
                                           << per_core_per_cycle << " elements/cycle/core");
  CHECK(per_core_per_cycle == doctest::Approx(128).epsilon(0.03));
  CHECK(t.task_type == "AI_VECTOR_CORE");
  CHECK(t.memory_copy_us > 0);  // an Add is memory-bound
}

TEST_CASE("cube padding: a 1x2048x1000 MatMul pads M to 16 and N to 1008") {
  const auto t = time_task(soc("Ascend310P3"), gemm_task(1, 1000, 2048));
  CHECK(t.exact_flops == 2.0 * 1 * 1000 * 2048);
  CHECK(t.padded_flops == 2.0 * 16 * 1008 * 2048);
}

TEST_CASE("L2 hit: an input the previous task left in L2 is not read from device memory") {
  const npusim::SocConfig s = soc("Ascend910");
  TaskInput cold = vector_add(1 << 20);
  TaskInput warm = cold;
  warm.l2_resident_input_bytes = (1 << 20) * 2;  // one of the two inputs
  const auto a = time_task(s, cold);
  const auto b = time_task(s, warm);
  CHECK(a.device_memory_bytes - b.device_memory_bytes == (1 << 20) * 2);
  CHECK(b.l2_bytes == (1 << 20) * 2);
  CHECK(b.duration_us < a.duration_us);
}
