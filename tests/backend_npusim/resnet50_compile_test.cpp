// ResNet-50 (torchvision; BatchNorm folded into the convolutions by the export) compiled for Ascend910B1: fp16 weights under force_fp16 are half the fp32 bytes of
// must_keep_origin_dtype, as the seed's table has it (98 MB -> 49 MB).
#include <doctest/doctest.h>

#include "compiler/compile_model.hpp"
#include "npusim_support.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

npusim::CompiledModel compile_resnet50(const std::string& precision_mode) {
  return npusim::compile_model(resnet50(), plugin_registry().ops(),
                               npusim::parse_compile_options({{"soc_version", "Ascend910B1"},
                                                              {"soc_dir", ASC_NPUSIM_SOURCE_SOC_DIR},
                                                              {"precision_mode", precision_mode}}));
}

}  // namespace

TEST_CASE("ResNet-50: force_fp16 weights are half of must_keep_origin_dtype's fp32 weights") {
  // The float parameters the exported graph holds (torchvision counts 25,557,032; folding each
  // BatchNorm into its convolution leaves one bias per channel instead of two parameters).
  double parameters = 0;
  for (const auto& [name, tensor] : resnet50().initializers)
    if (tensor.dtype() == DType::Float32) parameters += static_cast<double>(tensor.numel());
  CHECK(parameters == doctest::Approx(25'557'032).epsilon(0.002));
  const auto fp16 = compile_resnet50("force_fp16");
  const auto fp32 = compile_resnet50("must_keep_origin_dtype");
  const double fp16_bytes = static_cast<double>(fp16.profiles.front().memory.weight_bytes);
  const double fp32_bytes = static_cast<double>(fp32.profiles.front().memory.weight_bytes);
  MESSAGE("ResNet-50 weights on Ascend910B1: force_fp16 " << fp16_bytes << " bytes, must_keep_origin_dtype "
                                                          << fp32_bytes << " bytes");
  // At least 2 (4) bytes per parameter; padding to fractals (the first conv's 3 input channels
  // fill a C0 block of 16) and 512-byte alignment add well under 1 %.
  CHECK(fp16_bytes >= 2 * parameters);
  CHECK(fp16_bytes <= 2 * parameters * 1.01);
  CHECK(fp32_bytes >= 4 * parameters);
  CHECK(fp32_bytes <= 4 * parameters * 1.01);
  CHECK(fp16_bytes / fp32_bytes == doctest::Approx(0.5).epsilon(0.01));

  // force_fp16: one Cast at the input, one at the output, no others (weights are stored as fp16,
  // also those torch's export shares through Identity nodes); every cube task has a tiling.
  int casts = 0;
  for (const Node* node : fp16.graph.nodes()) casts += node->op_type == "Cast";
  CHECK(casts == 2);
  CHECK(fp16.profiles.front().tasks.size() == fp16.graph.node_count());
  for (const auto& task : fp16.profiles.front().tasks)
    if (task.unit == ComputeUnit::Cube) {
      CAPTURE(task.node);
      CHECK(task.compute_dtype == DType::Float16);
      CHECK(task.tiling.block_dim >= 1);
      CHECK(task.input_formats.at(1) == (fp16.graph.find_node(task.node)->op_type == "Conv" ? Format::FRACTAL_Z : Format::FRACTAL_NZ));
    }
  // Activation reuse: the arena is far smaller than the sum of all activations.
  const auto& memory = fp16.profiles.front().memory;
  CHECK(memory.activation_bytes < memory.activation_bytes_no_reuse / 4);
}

TEST_CASE("ResNet-50 under force_fp32 (cube_fp16in_fp32out) keeps cube weights in fp16") {
  const auto model = compile_resnet50("force_fp32");
  const auto fp16 = compile_resnet50("force_fp16");
  // Conv weights fp16 as under force_fp16; only the (tiny) biases and the FC weights' consumers differ.
  CHECK(static_cast<double>(model.profiles.front().memory.weight_bytes) ==
        doctest::Approx(static_cast<double>(fp16.profiles.front().memory.weight_bytes)).epsilon(0.01));
}

// The cube runs a convolution's K as its FRACTAL_Z weight holds it: the input channels padded to
// C0 at every kernel position. ResNet-50's first conv (3 channels, 7x7): 16 x 49 = 784 at C0 = 16,
// 4 x 49 = 196 with --enable_small_channel (C0 = 4), not 3 x 49 = 147; a 3x3 conv over 64
// channels needs no padding (576).
TEST_CASE("ResNet-50: a convolution's cube K pads its input channels to C0 per kernel position") {
  for (const bool small_channel : {false, true}) {
    CAPTURE(small_channel);
    const auto model = npusim::compile_model(
        resnet50(), plugin_registry().ops(),
        npusim::parse_compile_options({{"soc_version", "Ascend310P3"},
                                       {"soc_dir", ASC_NPUSIM_SOURCE_SOC_DIR},
                                       {"precision_mode", "force_fp16"},
                                       {"enable_small_channel", small_channel ? "1" : "0"}}));
    const npusim::CompiledTask* first = nullptr;
    const npusim::CompiledTask* three_by_three = nullptr;
    for (const auto& task : model.profiles.front().tasks) {
      if (task.unit != ComputeUnit::Cube) continue;
      if (first == nullptr) first = &task;
      if (task.node == "/layer1/layer1.0/conv2/Conv") three_by_three = &task;
    }
    REQUIRE(first != nullptr);
    REQUIRE(three_by_three != nullptr);
    CHECK(first->tiling.k == (small_channel ? 4 : 16) * 49);
    CHECK(three_by_three->tiling.k == 64 * 9);
  }
}
