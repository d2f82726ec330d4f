// The precision pass per --precision_mode on a small MatMul -> Softmax -> Relu graph: which node
// computes in which dtype, where Casts go, which weights become fp16 (expectations from ATC's
// documented rules and the op-info tables in configs/soc/ops_info, worked out by hand).
#include <doctest/doctest.h>

#include <asc/sdk/half.hpp>

#include "compiler/compile_model.hpp"
#include "compiler/precision_pass.hpp"
#include "npusim_backend.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;
using npusim::CompiledModel;

namespace {

// x[1,16] -> MatMul(w) -> a -> Softmax -> b -> Relu -> y; w is all 0.1 (fp16: 0.0999755859375).
Graph matmul_softmax_relu() {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 16})}, {"y"});
  graph.initializers["w"] = floats({16, 16}, std::vector<float>(256, 0.1f));
  add_node(graph, "mm", "MatMul", {"x", "w"}, {"a"});
  add_node(graph, "sm", "Softmax", {"a"}, {"b"});
  add_node(graph, "relu", "Relu", {"b"}, {"y"});
  return graph;
}

CompiledModel compile(const Graph& graph, BackendOptions options) {
  options["soc_dir"] = ASC_NPUSIM_SOURCE_SOC_DIR;
  return npusim::compile_model(graph, plugin_registry().ops(), npusim::parse_compile_options(options));
}

const npusim::CompiledTask& task(const CompiledModel& model, const std::string& node) {
  for (const auto& task : model.profiles.front().tasks)
    if (task.node == node) return task;
  FAIL("no task " << node);
  throw;
}

DType device_dtype(const CompiledModel& model, const std::string& value) {
  for (const auto& placement : model.profiles.front().values)
    if (placement.value == value) return placement.dtype;
  FAIL("no value " << value);
  throw;
}

// "op(input<-producer...)": the node order with each Cast's target, to compare with a hand list.
std::vector<std::string> node_list(const Graph& graph) {
  std::vector<std::string> list;
  for (const Node* node : graph.nodes()) {
    std::string entry = node->op_type;
    if (node->op_type == "Cast") entry += "(" + node->inputs[0] + ")->" + std::to_string(node->attributes.require_int("to"));
    list.push_back(entry);
  }
  return list;
}

}  // namespace

TEST_CASE("force_fp16: input cast to fp16, every op fp16, fp16 weights, output cast back to fp32") {
  const CompiledModel model = compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}});
  CHECK(node_list(model.graph) == std::vector<std::string>{"Cast(x)->10", "MatMul", "Softmax", "Relu", "Cast(y_float16)->1"});
  for (const char* node : {"mm", "sm", "relu"}) CHECK(task(model, node).compute_dtype == DType::Float16);
  CHECK(device_dtype(model, "w") == DType::Float16);
  CHECK(model.graph.initializers.at("w").span<float>()[0] == 0.0999755859375f);  // rounded at compile time
  CHECK(model.graph.find_node("mm")->inputs[0] == "x_float16");
  CHECK(model.graph.value_info("y")->dtype == DType::Float32);
  // Weights at fp16: 16 x 16 x 2 = 512 bytes (FRACTAL_NZ of 16 x 16 needs no padding).
  CHECK(model.profiles.front().memory.weight_bytes == 512);
  // The inserted Casts stand for no model node (ATC's inserted ops have no original names).
  CHECK(model.graph.producer("x_float16")->provenance.empty());
  CHECK(model.graph.producer("y")->provenance.empty());
}

TEST_CASE("allow_fp32_to_fp16: the cube op in fp16, vector ops kept in fp32") {
  const CompiledModel model = compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {"precision_mode", "allow_fp32_to_fp16"}});
  CHECK(node_list(model.graph) == std::vector<std::string>{"Cast(x)->10", "MatMul", "Cast(a)->1", "Softmax", "Relu"});
  CHECK(task(model, "mm").compute_dtype == DType::Float16);
  CHECK(task(model, "sm").compute_dtype == DType::Float32);
  CHECK(task(model, "relu").compute_dtype == DType::Float32);
  CHECK(device_dtype(model, "a") == DType::Float16);
  CHECK(device_dtype(model, "w") == DType::Float16);
}

TEST_CASE("allow_mix_precision / mixed_float16: white MatMul fp16, black Softmax fp32, gray Relu follows its input") {
  for (const char* mode : {"allow_mix_precision", "mixed_float16"}) {
    CAPTURE(mode);
    const CompiledModel model = compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {"precision_mode", mode}});
    CHECK(node_list(model.graph) == std::vector<std::string>{"Cast(x)->10", "MatMul", "Cast(a)->1", "Softmax", "Relu"});
    CHECK(task(model, "sm").compute_dtype == DType::Float32);
    CHECK(task(model, "relu").compute_dtype == DType::Float32);
  }
  // A gray op after an fp16 one stays fp16: MatMul -> Relu.
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 16})}, {"y"});
  graph.initializers["w"] = floats({16, 16}, std::vector<float>(256, 0.5f));
  add_node(graph, "mm", "MatMul", {"x", "w"}, {"a"});
  add_node(graph, "relu", "Relu", {"a"}, {"y"});
  const CompiledModel model = compile(graph, {{"soc_version", "Ascend310P3"}, {"precision_mode", "allow_mix_precision"}});
  CHECK(task(model, "relu").compute_dtype == DType::Float16);
  CHECK(node_list(model.graph) == std::vector<std::string>{"Cast(x)->10", "MatMul", "Relu", "Cast(y_float16)->1"});
}

TEST_CASE("force_fp32 (= cube_fp16in_fp32out): the cube reads fp16 and writes fp32; vector ops fp32") {
  for (const char* mode : {"force_fp32", "cube_fp16in_fp32out"}) {
    CAPTURE(mode);
    const CompiledModel model = compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {"precision_mode", mode}});
    CHECK(node_list(model.graph) == std::vector<std::string>{"Cast(x)->10", "MatMul", "Softmax", "Relu"});
    CHECK(task(model, "mm").compute_dtype == DType::Float16);
    CHECK(device_dtype(model, "a") == DType::Float32);
    CHECK(task(model, "sm").compute_dtype == DType::Float32);
    CHECK(device_dtype(model, "w") == DType::Float16);
  }
}

TEST_CASE("must_keep_origin_dtype: fp32 everywhere where the SoC has fp32 kernels, EE2002 where it has not") {
  const CompiledModel model = compile(matmul_softmax_relu(), {{"soc_version", "Ascend910B1"}, {"precision_mode", "must_keep_origin_dtype"}});
  CHECK(node_list(model.graph) == std::vector<std::string>{"MatMul", "Softmax", "Relu"});
  CHECK(task(model, "mm").compute_dtype == DType::Float32);
  CHECK(model.graph.initializers.at("w").span<float>()[0] == 0.1f);  // not rounded
  CHECK(model.profiles.front().memory.weight_bytes == 1024);

  // The seed's case: a float32 Conv on Ascend310P3 (fp16/int8 cube, no AI CPU Conv).
  Graph conv = make_graph({tensor_info("x", DType::Float32, {1, 3, 8, 8})}, {"y"});
  conv.initializers["w"] = floats({4, 3, 1, 1}, std::vector<float>(12, 0.5f));
  add_node(conv, "conv1", "Conv", {"x", "w"}, {"y"});
  const Error error = error_from([&] { compile(conv, {{"soc_version", "Ascend310P3"}, {"precision_mode", "must_keep_origin_dtype"}}); });
  CHECK(error.code() == ErrorCode::OperatorDtypeUnsupported);
  for (const char* part : {"'conv1'", "Conv", "float32", "Ascend310P3"}) CHECK(error.message().find(part) != std::string::npos);
}

TEST_CASE("keep_dtype keeps a listed node at fp32 inside an fp16 model, with Casts around it") {
  const CompiledModel model =
      compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {"keep_dtype_nodes", "sm"}});
  CHECK(node_list(model.graph) ==
        std::vector<std::string>{"Cast(x)->10", "MatMul", "Cast(a)->1", "Softmax", "Cast(b)->10", "Relu", "Cast(y_float16)->1"});
  CHECK(task(model, "sm").compute_dtype == DType::Float32);
  CHECK(task(model, "relu").compute_dtype == DType::Float16);
  CHECK(compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {"keep_dtype_nodes", "OpType::Softmax"}})
            .profiles.front().tasks.size() == 7);
  CHECK(error_from([] { compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {"keep_dtype_nodes", "nope"}}); })
            .code() == ErrorCode::ConfigBadValue);
}

TEST_CASE("output_type: FP16 outputs leave as fp16 (global or per node:index); unknown outputs are EE5007") {
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{{"output_type", "FP16"},
                                                                                    {"output_type", "relu:0:FP16"}}) {
    const std::string& shown_value = value;  // clang 14 cannot capture a structured binding
    CAPTURE(shown_value);
    const CompiledModel model = compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {key, value}});
    CHECK(model.graph.value_info("y")->dtype == DType::Float16);
    // The device already holds fp16: the last Cast only changes the host representation.
    CHECK(task(model, model.graph.producer("y")->name).unit == ComputeUnit::None);
    const auto executable = npusim::NpusimBackend().compile(
        matmul_softmax_relu(), plugin_registry().ops(),
        {{"soc_version", "Ascend310P3"}, {"soc_dir", ASC_NPUSIM_SOURCE_SOC_DIR}, {key, value}});
    const Tensor y = executable->execute({{"x", floats({1, 16}, std::vector<float>(16, 1.0f))}}, {}).at("y");
    CHECK(y.dtype() == DType::Float16);
    // Softmax over 16 equal logits is 1/16 exactly.
    CHECK(static_cast<float>(y.span<float16>()[0]) == 0.0625f);
  }
  const Error error = error_from([] { compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {"output_type", "sm:0:FP16"}}); });
  CHECK(error.code() == ErrorCode::ConfigBadValue);
  CHECK(error.message().find("relu:0") != std::string::npos);
}

TEST_CASE("op_select_implmode with optypelist_for_implmode is recorded on the listed op types only") {
  const CompiledModel model = compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"},
                                                              {"op_select_implmode", "high_precision"},
                                                              {"optypelist_for_implmode", "Softmax"}});
  CHECK(task(model, "sm").impl_mode == "high_precision");
  CHECK(task(model, "relu").impl_mode == "high_performance");
  CHECK(compile(matmul_softmax_relu(), {{"soc_version", "Ascend310P3"}, {"op_select_implmode", "high_precision_for_all"}})
            .profiles.front().tasks[2].impl_mode == "high_precision");
}

TEST_CASE("layouts: NC1HWC0 around a conv, FRACTAL_Z weights, small channel C0 = 4") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 3, 8, 8})}, {"y"});
  graph.initializers["w"] = floats({20, 3, 3, 3}, std::vector<float>(540, 0.5f));
  Node& conv = add_node(graph, "conv1", "Conv", {"x", "w"}, {"c"});
  conv.attributes.set("pads", std::vector<std::int64_t>{1, 1, 1, 1});
  add_node(graph, "relu", "Relu", {"c"}, {"r"});
  add_node(graph, "flat", "Flatten", {"r"}, {"y"});
  for (const bool small_channel : {false, true}) {
    CAPTURE(small_channel);
    const CompiledModel model =
        compile(graph, {{"soc_version", "Ascend310P3"}, {"enable_small_channel", small_channel ? "1" : "0"}});
    std::map<std::string, npusim::ValuePlacement> values;
    for (const auto& value : model.profiles.front().values) values[value.value] = value;
    const std::int64_t c0 = small_channel ? 4 : 16;
    CHECK(values.at("x").format == Format::NCHW);  // the graph input as the user gives it
    CHECK(values.at("x_float16").format == Format::NC1HWC0);
    CHECK(values.at("x_float16").device_shape == Shape{1, 1, 8, 8, c0});
    CHECK(values.at("w").format == Format::FRACTAL_Z);
    // [Cout 20, Cin 3, 3, 3] -> [C1 * KH * KW = 9, N1 = 2, 16, C0]
    CHECK(values.at("w").device_shape == Shape{9, 2, 16, c0});
    CHECK(values.at("w").bytes == 9 * 2 * 16 * c0 * 2);
    // The conv output and the Relu after it: [1, 20, 8, 8] -> C1 = 2 blocks of 16.
    CHECK(values.at("c").device_shape == Shape{1, 2, 8, 8, 16});
    CHECK(values.at("r").format == Format::NC1HWC0);
    CHECK(values.at("y_float16").format == Format::ND);
  }
}

TEST_CASE("host_graph: the compiled graph runs on another backend in host dtypes, with the .om's fp16 weights") {
  // x[1,1,2,2] -> Conv(w = 0.1, 1x1) -> y: under force_fp16 the pass casts x to fp16 for the conv
  // and rounds w to fp16 (0.0999755859375), keeping float32 host storage for both.
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 1, 2, 2})}, {"y"});
  graph.initializers["w"] = floats({1, 1, 1, 1}, {0.1f});
  add_node(graph, "conv", "Conv", {"x", "w"}, {"y"});
  const CompiledModel model = compile(graph, {{"soc_version", "Ascend310P3"}});
  const TensorMap inputs = {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})}};

  // As compiled, the input's Cast yields fp16 where the graph declares the host's float32 (and the
  // Conv would then mix it with the float32 weight): only npusim's executor reconciles them. The
  // reference backend stops at the Cast, whose output breaks its declared type.
  const Error as_compiled = error_from([&] { compile_reference(model.graph)->execute(inputs, {}); });
  CHECK(as_compiled.code() == ErrorCode::ExecutionFailed);
  CHECK(std::string(as_compiled.what()).find("(Cast)") != std::string::npos);
  CHECK(std::string(as_compiled.what()).find("is float16[1,1,2,2], but shape inference declared float32[1,1,2,2]") !=
        std::string::npos);

  const Graph host = npusim::host_graph(model.graph);
  CHECK(host.nodes().size() == model.graph.nodes().size());  // the Casts stay, named as compiled
  int casts = 0;
  for (const Node* node : host.nodes())
    if (node->op_type == "Cast") {
      CHECK(node->attributes.require_int("to") == 1);  // FLOAT: the outputs' declared dtype
      ++casts;
    }
  CHECK(casts >= 1);
  const TensorMap outputs = compile_reference(host)->execute(inputs, {});
  CHECK(outputs.at("y").dtype() == DType::Float32);
  // x * fp16(0.1), exact in float32.
  CHECK(values_of(outputs.at("y")) == std::vector<float>{0.0999755859375f, 0.199951171875f, 0.2999267578125f,
                                                         0.39990234375f});
}
