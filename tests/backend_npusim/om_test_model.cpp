#include "om_test_model.hpp"

#include <memory>

namespace asc::test {
namespace {

using npusim::CompiledProfile;
using npusim::CompiledTask;
using npusim::ValuePlacement;

Node make_node(std::string name, std::string op_type, std::vector<std::string> inputs,
               std::vector<std::string> outputs, std::vector<std::string> provenance) {
  Node node;
  node.name = std::move(name);
  node.op_type = std::move(op_type);
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  node.provenance = std::move(provenance);
  return node;
}

// A branch graph that reads the outer value "x" and has an initializer of its own.
std::shared_ptr<Graph> branch(const std::string& name, float scale) {
  auto graph = std::make_shared<Graph>();
  graph->name = name;
  graph->outputs = {name + "_out"};
  graph->initializers["scale"] = Tensor::from_vector<float>({1}, {scale});
  graph->values[name + "_out"] = ValueInfo::from_shape(name + "_out", DType::Float32, {1, 32, 8, 8});
  graph->add_node(make_node(name + "_mul", "Mul", {"x", "scale"}, {name + "_out"}, {"if1"}));
  return graph;
}

Attributes every_attribute_kind() {
  Attributes attributes;
  attributes.set("group", std::int64_t{1});
  attributes.set("alpha", 0.5f);
  attributes.set("auto_pad", std::string("NOTSET"));
  attributes.set("value", Tensor::from_vector<std::int32_t>({2, 2}, {1, -2, 3, -4}));
  attributes.set("then_branch", branch("then", 2.0f));
  attributes.set("pads", std::vector<std::int64_t>{1, 1, 1, 1});
  attributes.set("scales", std::vector<float>{0.25f, -1.5f});
  attributes.set("names", std::vector<std::string>{"a", "", "c"});
  attributes.set("tables", std::vector<Tensor>{Tensor::from_vector<std::int8_t>({3}, {-128, 0, 127}),
                                              Tensor::from_vector<bool>({2}, {true, false}), Tensor()});
  attributes.set("branches", std::vector<std::shared_ptr<Graph>>{branch("left", 3.0f), branch("right", -1.0f)});
  return attributes;
}

Graph test_graph() {
  Graph graph;
  graph.name = "tiny_net";
  graph.opset_imports = {{"", 17}, {"com.microsoft", 1}};
  graph.inputs = {"x"};
  graph.outputs = {"y", "flag"};
  graph.metadata = {{"producer_name", "pytorch"}, {"doc_string", "hand-made"}};
  graph.values["x"] = ValueInfo{"x", DType::Float32, std::vector<Dim>{Dim::symbolic("batch"), 32, 8, 8}};
  graph.values["conv_out"] = ValueInfo{"conv_out", DType::Float32, std::vector<Dim>{Dim::symbolic("batch"), 64, Dim(), 8}};
  graph.values["y"] = ValueInfo{"y", DType::Float16, std::nullopt};

  graph.initializers["w"] = Tensor::from_vector<float>({64, 32, 3, 3}, om_test_weight_values()).with_format(Format::NCHW);
  graph.initializers["b"] = Tensor::from_vector<float>({64}, std::vector<float>(64, -0.125f));
  graph.initializers["target_shape"] = Tensor::from_vector<std::int64_t>({2}, {1, -1});

  Node conv = make_node("conv1_relu1", "Conv", {"x", "w", "b"}, {"conv_out"}, {"conv1", "bn1", "relu1"});
  conv.attributes = every_attribute_kind();
  graph.add_node(std::move(conv));
  // An inserted node: no original node.
  graph.add_node(make_node("cast_conv_out", "Cast", {"conv_out"}, {"conv_out_fp16"}, {}));
  Node reshape = make_node("reshape", "Reshape", {"conv_out_fp16", "target_shape", ""}, {"y", ""}, {"reshape"});
  reshape.domain = "com.microsoft";
  graph.add_node(std::move(reshape));
  Node check = make_node("check", "IsNaN", {"y"}, {"flag"}, {"isnan"});
  graph.add_node(std::move(check));
  return graph;
}

CompiledTask task(const std::string& node, ComputeUnit unit, DType dtype, std::vector<Format> in,
                  std::vector<Format> out, std::int64_t batch) {
  CompiledTask task;
  task.node = node;
  task.unit = unit;
  task.task_type = unit == ComputeUnit::None ? "" : unit == ComputeUnit::Scalar ? "AI_CPU" : "AI_CORE";
  task.compute_dtype = dtype;
  task.impl_mode = unit == ComputeUnit::Cube ? "high_performance" : "high_precision";
  task.input_formats = std::move(in);
  task.output_formats = std::move(out);
  task.workspace_bytes = 1024 * batch;
  if (unit == ComputeUnit::Cube) {
    task.tiling = {.block_dim = static_cast<int>(2 * batch), .batch = 1, .m = 64 * batch, .k = 288, .n = 64,
                   .block_m = 32, .block_n = 64, .base_m = 32, .base_k = 96, .base_n = 64, .l1_k = 288,
                   .l0a_bytes = 6144, .l0b_bytes = 12288, .l0c_bytes = 8192, .l1_bytes = 55296};
  } else {
    task.tiling = {.block_dim = 1, .elements = 1024 * batch, .ub_tile_elements = 512, .tiles_per_block = 2 * batch,
                   .double_buffer = false, .ub_bytes = 2048};
  }
  return task;
}

ValuePlacement placement(std::string value, ValuePlacement::Region region, DType dtype, Format format, Shape shape,
                         Shape device_shape, std::int64_t offset, std::int64_t bytes, int first, int last) {
  return {std::move(value), region, dtype, format, std::move(shape), std::move(device_shape),
          offset,           bytes,  first, last};
}

CompiledProfile profile(std::int64_t batch, DType weight_dtype) {
  using Region = ValuePlacement::Region;
  CompiledProfile profile;
  profile.label = "batch=" + std::to_string(batch);
  profile.input_shapes = {{"x", {batch, 32, 8, 8}}};
  profile.tasks = {
      task("conv1_relu1", ComputeUnit::Cube, DType::Float16, {Format::NC1HWC0, Format::FRACTAL_Z, Format::ND},
           {Format::NC1HWC0}, batch),
      task("cast_conv_out", ComputeUnit::Vector, DType::Float16, {Format::NC1HWC0}, {Format::NC1HWC0}, batch),
      task("reshape", ComputeUnit::None, DType::Undefined, {Format::NC1HWC0, Format::ND}, {Format::ND}, batch),
      task("check", ComputeUnit::Scalar, DType::Float16, {Format::ND}, {Format::FRACTAL_NZ}, batch),
  };
  const auto weight_bytes = static_cast<std::int64_t>(dtype_size(weight_dtype));
  profile.values = {
      placement("x", Region::Input, DType::Float16, Format::NC1HWC0, {batch, 32, 8, 8}, {batch, 2, 8, 8, 16}, 0,
                batch * 4096, -1, -1),
      placement("w", Region::Weight, weight_dtype, Format::FRACTAL_Z, {64, 32, 3, 3}, {18, 4, 16, 16}, 0,
                kOmTestWeightElements * weight_bytes, -1, -1),
      placement("b", Region::Weight, weight_dtype, Format::ND, {64}, {64}, 73728, 64 * weight_bytes, -1, -1),
      placement("target_shape", Region::Weight, DType::Int64, Format::ND, {2}, {2}, 73984, 16, -1, -1),
      placement("conv_out", Region::Activation, DType::Float16, Format::NC1HWC0, {batch, 64, 8, 8},
                {batch, 4, 8, 8, 16}, 0, batch * 8192, 0, 1),
      placement("y", Region::Output, DType::Float16, Format::ND, {1, batch * 4096}, {1, batch * 4096}, 0,
                batch * 8192, 2, 3),
      // Every value a node reads or writes has a placement (a reader refuses a profile without).
      placement("conv_out_fp16", Region::Activation, DType::Float16, Format::NC1HWC0, {batch, 64, 8, 8},
                {batch, 4, 8, 8, 16}, batch * 8192, batch * 8192, 1, 2),
      placement("flag", Region::Output, DType::Bool, Format::ND, {1, batch * 4096}, {1, batch * 4096}, batch * 8192,
                batch * 4096, 3, 3),
  };
  profile.memory = {.reuse = true, .activation_bytes = batch * 8192, .activation_bytes_no_reuse = batch * 16384,
                    .weight_bytes = 74000, .workspace_bytes = batch * 1024, .input_bytes = batch * 4096,
                    .output_bytes = batch * 8192 + 1024};
  return profile;
}

}  // namespace

std::vector<float> om_test_weight_values() {
  std::vector<float> values(kOmTestWeightElements);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(static_cast<int>(i % 2048) - 1024) / 256.0f;
  values[1] = 65504.0f;
  values[2] = 6.103515625e-05f;    // 2^-14
  values[3] = 5.9604644775390625e-08f;  // 2^-24
  values[4] = -0.0f;
  return values;
}

npusim::CompiledModel om_test_model(DType weight_dtype) {
  npusim::CompiledModel model;
  model.soc_version = "Ascend310P3";
  model.source_model = "models/tiny_net.onnx";
  model.framework = "ONNX";
  model.dynamic_kind = "batch";
  model.options.soc_version = "Ascend310P3";
  model.options.soc_dir = "/opt/soc";
  model.options.precision_mode = "allow_mix_precision";
  model.options.op_select_implmode = "high_precision";
  model.options.optypelist_for_implmode = {"Conv", "Softmax"};
  model.options.keep_dtype_nodes = {"check"};
  model.options.output_type = "FP16";
  model.options.output_type_per_output = {{"reshape:0", "FP32"}, {"check:0", "UINT8"}};
  model.options.input_format = "NCHW";
  model.options.dynamic_batch_size = "1,4";
  model.options.buffer_optimize = "l1_optimize";
  model.options.enable_small_channel = true;
  model.options.enable_l2dynamic = false;
  model.options.disable_reuse_memory = true;
  model.options.debug_dir = "dbg";
  model.options.op_lib_paths = {"/ops/a.so", "/ops/b.so"};
  model.options.command_line =
      "atc --model=models/tiny_net.onnx --framework=5 --output=tiny --soc_version=Ascend310P3 --dynamic_batch_size=1,4";
  model.graph = test_graph();
  model.profiles = {profile(1, weight_dtype), profile(4, weight_dtype)};
  return model;
}

}  // namespace asc::test
