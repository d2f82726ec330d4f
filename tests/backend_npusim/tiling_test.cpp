// The tiling choice: every buffer footprint fits its SoC buffer (twice, when double-buffered),
// tiles are cube-fractal / 32-byte multiples, and blocks cover the whole problem.
#include <doctest/doctest.h>

#include "compiler/tiling.hpp"
#include "npusim_support.hpp"

using namespace asc;
using namespace asc::test;
using asc::npusim::choose_tiling;
using asc::npusim::TaskInput;
using asc::npusim::Tiling;

namespace {

const std::string kSocs[] = {"Ascend310", "Ascend310P3", "Ascend910", "Ascend910B1", "Ascend910B2", "Ascend910B4"};

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

TaskInput cube_task(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k, std::size_t bytes) {
  TaskInput task;
  task.unit = ComputeUnit::Cube;
  task.gemm = npusim::GemmDims{batch, m, n, k};
  task.flops = 2.0 * batch * m * n * k;
  task.first_input_elements = batch * m * k;
  task.input_elements = batch * (m * k + k * n);
  task.output_elements = batch * m * n;
  task.input_count = 2;
  task.element_bytes = bytes;
  return task;
}

}  // namespace

TEST_CASE("cube tilings fit L0A, L0B, L0C and L1 with double buffering, on every SoC") {
  const std::int64_t sizes[] = {1, 7, 49, 100, 256, 1000, 3136, 12544};
  const std::int64_t depths[] = {9, 64, 147, 576, 2048, 4608};
  for (const std::string& name : kSocs) {
    const npusim::SocConfig s = soc(name);
    for (const std::size_t bytes : {std::size_t{1}, std::size_t{2}})
      for (const std::int64_t m : sizes)
        for (const std::int64_t n : {1L, 64L, 1000L, 2048L})
          for (const std::int64_t k : depths) {
            CAPTURE(name);
            CAPTURE(bytes);
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            const npusim::CubeShape& cube = npusim::cube_shape(s, bytes);
            const auto es = static_cast<std::int64_t>(bytes);
            const Tiling t = choose_tiling(s, cube_task(1, m, n, k, bytes));
            CHECK(t.base_m % cube.m == 0);
            CHECK(t.base_n % cube.n == 0);
            CHECK(t.base_k % cube.k == 0);
            const std::int64_t kp = (k + cube.k - 1) / cube.k * cube.k;
            CHECK((t.l1_k % t.base_k == 0 || t.l1_k == kp));  // base_k steps, or the whole K
            // Footprints as recorded, recomputed here, and within the SoC's buffers.
            CHECK(t.l0a_bytes == 2 * t.base_m * t.base_k * es);
            CHECK(t.l0b_bytes == 2 * t.base_k * t.base_n * es);
            CHECK(t.l0c_bytes == 2 * t.base_m * t.base_n * 4);
            CHECK(t.l1_bytes == 2 * (t.base_m + t.base_n) * t.l1_k * es);
            CHECK(t.l0a_bytes <= s.l0a_bytes);
            CHECK(t.l0b_bytes <= s.l0b_bytes);
            CHECK(t.l0c_bytes <= s.l0c_bytes);
            CHECK(t.l1_bytes <= s.l1_bytes);
            // The blocks cover the padded output and no core gets two blocks while one idles.
            CHECK(t.block_dim == ceil_div(m, t.block_m) * ceil_div(n, t.block_n));
            CHECK(t.block_dim <= s.ai_cores);
            CHECK(t.base_m <= t.block_m);
            CHECK(t.base_n <= t.block_n);
          }
  }
}

TEST_CASE("grouped convolutions: every group's product splits alike, beyond the core count") {
  const npusim::SocConfig s = soc("Ascend310P3");
  const Tiling t = choose_tiling(s, cube_task(32, 3136, 1, 9, 2));  // depthwise 3x3, 32 channels
  CHECK(t.batch == 32);
  CHECK(t.block_dim == 32 * ceil_div(3136, t.block_m));
  CHECK(t.block_dim > s.ai_cores);  // run in waves
}

TEST_CASE("vector tilings: 32-byte tiles that fit UB twice per operand, spread over the vector cores") {
  for (const std::string& name : kSocs) {
    const npusim::SocConfig s = soc(name);
    const int cores = s.split ? s.vector_cores : s.ai_cores;
    for (const std::int64_t elements : {1L, 100L, 128L, 4096L, 802816L, 25690112L})
      for (const int inputs : {1, 2, 5})
        for (const std::size_t bytes : {std::size_t{2}, std::size_t{4}}) {
          CAPTURE(name);
          CAPTURE(elements);
          CAPTURE(inputs);
          TaskInput task;
          task.unit = ComputeUnit::Vector;
          task.flops = static_cast<double>(elements);
          task.largest_elements = task.output_elements = elements;
          task.input_elements = inputs * elements;
          task.input_count = inputs;
          task.element_bytes = bytes;
          const Tiling t = choose_tiling(s, task);
          const auto es = static_cast<std::int64_t>(bytes);
          CHECK(t.double_buffer);
          CHECK(t.ub_bytes == 2 * (inputs + 1) * t.ub_tile_elements * es);
          CHECK(t.ub_bytes <= s.ub_bytes);
          CHECK(t.block_dim >= 1);
          CHECK(t.block_dim <= cores);
          const std::int64_t block_elements = ceil_div(elements, t.block_dim);
          CHECK(t.tiles_per_block * t.ub_tile_elements >= block_elements);
          CHECK((t.tiles_per_block - 1) * t.ub_tile_elements < block_elements);
          if (block_elements >= 32 / es) CHECK((t.ub_tile_elements * es) % 32 == 0);
          if (elements >= 128L * cores) CHECK(t.block_dim == cores);  // large tensors use every core
        }
  }
}

TEST_CASE("scalar and metadata-only tasks get no AI core tiling") {
  TaskInput task;
  task.unit = ComputeUnit::Scalar;
  const Tiling t = choose_tiling(soc("Ascend910"), task);
  CHECK(t.block_dim == 1);
  CHECK(t.ub_bytes == 0);
  CHECK(t.l1_bytes == 0);
}

TEST_CASE("the GEMM view of a fused convolution is its convolution's") {
  const std::vector<Shape> inputs = {{1, 64, 56, 56}, {256, 64, 1, 1}, {256}};
  const std::vector<Shape> outputs = {{1, 256, 56, 56}};
  const Node conv{"c", "Conv", "", {}, {"x", "w", "b"}, {"y"}, {}};
  const Node fused{"c", "FusedConv", "asc", {}, {"x", "w", "b"}, {"y"}, {}};
  const auto expected = npusim::gemm_dims(conv, inputs, outputs);
  const auto actual = npusim::gemm_dims(fused, inputs, outputs);
  REQUIRE(expected.has_value());
  REQUIRE(actual.has_value());
  CHECK(actual->batch == 1);
  CHECK(actual->m == 56 * 56);
  CHECK(actual->n == 256);
  CHECK(actual->k == 64);
  CHECK(expected->flops() == actual->flops());
  const Node other_domain{"c", "FusedConv", "com.example", {}, {"x", "w", "b"}, {"y"}, {}};
  CHECK_FALSE(npusim::gemm_dims(other_domain, inputs, outputs).has_value());
}

TEST_CASE("a MatMul whose B every batch shares is one GEMM with A's leading dims in M") {
  const Node matmul{"m", "MatMul", "", {}, {"a", "b"}, {"y"}, {}};
  // The BERT-style encoder's in-projection: [seq, batch, d] x [d, 3d].
  const auto projection = npusim::gemm_dims(matmul, {{512, 4, 768}, {768, 2304}}, {{512, 4, 2304}});
  REQUIRE(projection.has_value());
  CHECK(projection->batch == 1);
  CHECK(projection->m == 512 * 4);
  CHECK(projection->n == 2304);
  CHECK(projection->k == 768);
  CHECK(projection->flops() == 2.0 * 512 * 4 * 768 * 2304);
  // A B with leading dims of 1 broadcasts the same way.
  const auto broadcast = npusim::gemm_dims(matmul, {{8, 16, 32}, {1, 32, 64}}, {{8, 16, 64}});
  REQUIRE(broadcast.has_value());
  CHECK(broadcast->batch == 1);
  CHECK(broadcast->m == 128);
  // A batched B (attention's Q x K^T) stays batched: each batch has its own B.
  const auto batched = npusim::gemm_dims(matmul, {{2, 12, 128, 64}, {2, 12, 64, 128}}, {{2, 12, 128, 128}});
  REQUIRE(batched.has_value());
  CHECK(batched->batch == 24);
  CHECK(batched->m == 128);
  CHECK(batched->n == 128);
  CHECK(batched->k == 64);
}

TEST_CASE("depthwise convolutions pack 16 channels per cube product, as NC1HWC0's C0 block") {
  const Node conv{"dw", "Conv", "", {}, {"x", "w"}, {"y"}, {}};
  // 144 channels, 3x3: 9 products of (3136 x 144) * (144 x 16), one per C0 block of 16 channels.
  const auto depthwise = npusim::gemm_dims(conv, {{1, 144, 56, 56}, {144, 1, 3, 3}}, {{1, 144, 56, 56}});
  REQUIRE(depthwise.has_value());
  CHECK(depthwise->batch == 9);
  CHECK(depthwise->m == 3136);
  CHECK(depthwise->n == 16);
  CHECK(depthwise->k == 9 * 16);
  CHECK(depthwise->packed == 16);
  CHECK(depthwise->flops() == 2.0 * 144 * 3136 * 9);  // the operator's own multiply-adds
  // 40 channels: 3 products, the last one half full.
  const auto uneven = npusim::gemm_dims(conv, {{1, 40, 8, 8}, {40, 1, 3, 3}}, {{1, 40, 8, 8}});
  REQUIRE(uneven.has_value());
  CHECK(uneven->batch == 3);
  // Groups as wide as the fractal are products of their own.
  const auto grouped = npusim::gemm_dims(conv, {{1, 64, 8, 8}, {64, 16, 3, 3}}, {{1, 64, 8, 8}});
  REQUIRE(grouped.has_value());
  CHECK(grouped->batch == 4);
  CHECK(grouped->n == 16);
  CHECK(grouped->packed == 1);
}
