// NPU numerics: under force_fp16 results are rounded to fp16 at every node boundary, cube
// operators accumulate in fp32; the expected values are worked out by hand below.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "npusim_support.hpp"
#include "precision.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

float run_single_output(const Graph& graph, const TensorMap& inputs, const std::string& precision_mode,
                        const std::string& soc_version = "Ascend310P3") {
  const auto executable = compile_npusim(graph, soc_version, precision_mode);
  return values_of(executable->execute(inputs, {}).at("y"))[0];
}

}  // namespace

TEST_CASE("Add: 1 + 3*2^-12 rounds to the nearest fp16, 1 + 2^-10") {
  // fp16 spacing just above 1 is 2^-10; 3*2^-12 is 0.75 of it, so the sum rounds up.
  Graph graph = make_graph({tensor_info("a", DType::Float32, {1}), tensor_info("b", DType::Float32, {1})}, {"y"});
  add_node(graph, "add", "Add", {"a", "b"}, {"y"});
  const TensorMap inputs = {{"a", floats({1}, {1.0f})}, {"b", floats({1}, {0.000732421875f})}};
  CHECK(run_single_output(graph, inputs, "force_fp16") == 1.0009765625f);
  CHECK(run_single_output(graph, inputs, "must_keep_origin_dtype") == 1.000732421875f);
  CHECK(values_of(compile_reference(graph)->execute(inputs, {}).at("y"))[0] == 1.000732421875f);
}

TEST_CASE("MatMul accumulates in fp32 and rounds once: [1,1,1] . [1, 2^-11, 2^-12]") {
  // fp32 sum 1 + 2^-11 + 2^-12 = 1.000732421875 (exact), rounded once to fp16: 1 + 2^-10.
  // Accumulating in fp16 instead would give 1 (1 + 2^-11 is a tie that rounds to even).
  Graph graph = make_graph({tensor_info("a", DType::Float32, {1, 3}), tensor_info("b", DType::Float32, {3, 1})}, {"y"});
  add_node(graph, "mm", "MatMul", {"a", "b"}, {"y"});
  const TensorMap inputs = {{"a", floats({1, 3}, {1, 1, 1})},
                            {"b", floats({3, 1}, {1.0f, 0.00048828125f, 0.000244140625f})}};
  CHECK(run_single_output(graph, inputs, "force_fp16") == 1.0009765625f);
  // force_fp32 is ATC's cube_fp16in_fp32out: the fp16-exact operands, the fp32 sum unrounded.
  CHECK(run_single_output(graph, inputs, "force_fp32", "Ascend310P3") == 1.000732421875f);
  // Ascend910B1's op-info has an fp32 MatMul; Ascend310P3's has none (EE2002).
  CHECK(run_single_output(graph, inputs, "must_keep_origin_dtype", "Ascend910B1") == 1.000732421875f);
  CHECK(error_from([&] { compile_npusim(graph, "Ascend310P3", "must_keep_origin_dtype"); }).code() ==
        ErrorCode::OperatorDtypeUnsupported);
}

TEST_CASE("inputs and weights are stored as fp16: Relu(0.1) gives fp16's 0.1") {
  // 0.1 in fp16 is 1638/16384 = 0.0999755859375.
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1})}, {"y"});
  add_node(graph, "relu", "Relu", {"x"}, {"y"});
  CHECK(run_single_output(graph, {{"x", floats({1}, {0.1f})}}, "force_fp16") == 0.0999755859375f);
  Graph weighted = make_graph({tensor_info("x", DType::Float32, {1})}, {"y"});
  weighted.initializers["w"] = floats({1}, {0.1f});
  add_node(weighted, "mul", "Mul", {"x", "w"}, {"y"});
  // 1 * fp16(0.1) is exact.
  CHECK(run_single_output(weighted, {{"x", floats({1}, {1.0f})}}, "force_fp16") == 0.0999755859375f);
}

TEST_CASE("a Conv between Convs rounds its output to fp16 (in its threads' pieces): 1 + 3*2^-12 -> 1 + 2^-10") {
  // conv1 = x + 3*2^-12 (1x1, weight 1), kept channels-last for conv2, whose kernel rounds it to
  // fp16 piece by piece (KernelContext::output_epilogue, SDK 0.6): 1 + 2^-10. conv2 = conv1 - 1
  // shows it: 2^-10 after the rounding, 3*2^-12 (also an fp16) had it been skipped.
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 1, 1, 2})}, {"y"});
  graph.initializers["w"] = floats({1, 1, 1, 1}, {1.0f});
  graph.initializers["b1"] = floats({1}, {0.000732421875f});
  graph.initializers["b2"] = floats({1}, {-1.0f});
  add_node(graph, "conv1", "Conv", {"x", "w", "b1"}, {"c1"});
  add_node(graph, "conv2", "Conv", {"c1", "w", "b2"}, {"y"});
  const TensorMap inputs = {{"x", floats({1, 1, 1, 2}, {1.0f, 1.0f})}};
  for (const int threads : {1, 2}) {
    RunOptions options;
    options.threads = threads;
    const std::vector<float> y = values_of(compile_npusim(graph, "Ascend310P3", "force_fp16")->execute(inputs, options).at("y"));
    CHECK(y == std::vector<float>{0.0009765625f, 0.0009765625f});
  }
  const std::vector<float> exact = values_of(compile_reference(graph)->execute(inputs, {}).at("y"));
  CHECK(exact == std::vector<float>{0.000732421875f, 0.000732421875f});
}

TEST_CASE("a small conv net under force_fp16 stays within cosine 0.999 of the reference") {
  std::mt19937 generator(7);
  std::normal_distribution<float> normal(0.0f, 0.2f);
  auto random = [&](Shape shape) {
    std::vector<float> values(static_cast<std::size_t>(num_elements(shape)));
    for (float& v : values) v = normal(generator);
    return floats(std::move(shape), values);
  };
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 3, 16, 16})}, {"y"});
  graph.initializers["w1"] = random({16, 3, 3, 3});
  graph.initializers["b1"] = random({16});
  graph.initializers["w2"] = random({16, 16, 3, 3});
  graph.initializers["fc"] = random({16, 10});
  Node& conv1 = add_node(graph, "conv1", "Conv", {"x", "w1", "b1"}, {"c1"});
  conv1.attributes.set("pads", std::vector<std::int64_t>{1, 1, 1, 1});
  add_node(graph, "relu1", "Relu", {"c1"}, {"r1"});
  Node& conv2 = add_node(graph, "conv2", "Conv", {"r1", "w2"}, {"c2"});
  conv2.attributes.set("pads", std::vector<std::int64_t>{1, 1, 1, 1});
  add_node(graph, "add", "Add", {"c2", "r1"}, {"s"});
  add_node(graph, "relu2", "Relu", {"s"}, {"r2"});
  add_node(graph, "gap", "GlobalAveragePool", {"r2"}, {"g"});
  add_node(graph, "flat", "Flatten", {"g"}, {"f"});
  add_node(graph, "fc", "MatMul", {"f", "fc"}, {"y"});
  const TensorMap inputs = {{"x", random({1, 3, 16, 16})}};

  const std::vector<float> reference = values_of(compile_reference(graph)->execute(inputs, {}).at("y"));
  const std::vector<float> npu = values_of(compile_npusim(graph, "Ascend910")->execute(inputs, {}).at("y"));
  CHECK(cosine_similarity(npu, reference) >= 0.999);
  CHECK(npu != reference);  // fp16 rounding did happen
}

// Task outputs are rounded in place when nothing else holds their buffer; a tensor that shares
// its buffer (an Identity's output is its input) must be copied, leaving the original as it was.
TEST_CASE("rounded: in place for a sole handle, a copy when the buffer is shared") {
  Tensor fresh = Tensor::from_vector<float>({2}, {0.1f, 1.0f});
  const float* storage = fresh.data<float>();
  const Tensor in_place = npusim::rounded(std::move(fresh));
  CHECK(in_place.data<float>() == storage);
  CHECK(in_place.data<float>()[0] == 0.0999755859375f);  // 1638/16384, fp16's 0.1
  CHECK(in_place.data<float>()[1] == 1.0f);

  const Tensor original = Tensor::from_vector<float>({1}, {0.1f});
  const Tensor copied = npusim::rounded(original);
  CHECK(copied.data<float>() != original.data<float>());
  CHECK(copied.data<float>()[0] == 0.0999755859375f);
  CHECK(original.data<float>()[0] == 0.1f);
}

TEST_CASE("widened_from_f16: fp16 values as float32, on several threads, in the tensor's layout") {
  // 1 + i * 2^-10 (exact in fp16) over more elements than one work item, in an NHWC tensor.
  const Shape shape{1, 3, 200, 200};
  Tensor nchw(DType::Float16, shape);
  float16* half = nchw.data<float16>();
  for (std::int64_t i = 0; i < nchw.numel(); ++i)
    half[i] = float16(1.0f + std::ldexp(static_cast<float>(i % 1024), -10));
  const Tensor nhwc = nchw.channels_last();
  const Tensor widened = npusim::widened_from_f16(nhwc, 2);
  REQUIRE(widened.dtype() == DType::Float32);
  CHECK(widened.strides() == nhwc.strides());
  CHECK(values_of(widened) == values_of(nchw.cast(DType::Float32)));
}
