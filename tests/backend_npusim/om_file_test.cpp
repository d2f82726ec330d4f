// The .om file: a hand-built CompiledModel written and read back field by field.
#include <doctest/doctest.h>

#include <asc/sdk/half.hpp>
#include <asc/sdk/io.hpp>
#include <bit>
#include <cstring>

#include "om/om_file.hpp"
#include "om/om_header.hpp"
#include "om_test_model.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;
using namespace asc::npusim;

namespace {

void check_same_value_info(const ValueInfo& a, const ValueInfo& b) {
  CHECK(a.name == b.name);
  CHECK(a.dtype == b.dtype);
  REQUIRE(a.shape.has_value() == b.shape.has_value());
  if (a.shape) CHECK(*a.shape == *b.shape);
}

std::vector<std::uint32_t> float_bits(const Tensor& tensor) {
  std::vector<std::uint32_t> bits;
  for (const float value : tensor.span<float>()) bits.push_back(std::bit_cast<std::uint32_t>(value));
  return bits;
}

void check_same_graph(const Graph& a, const Graph& b) {
  INFO("graph " << a.name);
  CHECK(a.name == b.name);
  CHECK(a.opset_imports == b.opset_imports);
  CHECK(a.inputs == b.inputs);
  CHECK(a.outputs == b.outputs);
  CHECK(a.metadata == b.metadata);
  REQUIRE(a.values.size() == b.values.size());
  for (const auto& [name, info] : a.values) {
    REQUIRE(b.values.count(name) == 1);
    check_same_value_info(info, b.values.at(name));
  }
  REQUIRE(a.initializers.size() == b.initializers.size());
  for (const auto& [name, tensor] : a.initializers) {
    const std::string& initializer = name;  // clang 14 cannot capture a structured binding
    INFO("initializer " << initializer);
    REQUIRE(b.initializers.count(name) == 1);
    const Tensor& other = b.initializers.at(name);
    CHECK(other.dtype() == tensor.dtype());
    CHECK(other.shape() == tensor.shape());
    CHECK(other.format() == tensor.format());
    CHECK(other.to_doubles() == tensor.to_doubles());
  }
  REQUIRE(a.node_count() == b.node_count());
  for (std::size_t i = 0; i < a.node_count(); ++i) {
    const Node& x = *a.nodes()[i];
    const Node& y = *b.nodes()[i];
    INFO("node " << x.name);
    CHECK(x.name == y.name);
    CHECK(x.op_type == y.op_type);
    CHECK(x.domain == y.domain);
    CHECK(x.inputs == y.inputs);
    CHECK(x.outputs == y.outputs);
    CHECK(x.provenance == y.provenance);
    CHECK(x.attributes == y.attributes);  // deep: tensor bytes and subgraph nodes
    for (const auto& [name, value] : x.attributes.all()) {
      if (const auto* graph = std::get_if<std::shared_ptr<Graph>>(&value))
        check_same_graph(**graph, *y.attributes.require_graph(name));
    }
  }
}

void check_same_tiling(const Tiling& a, const Tiling& b) {
  CHECK(a.block_dim == b.block_dim);
  CHECK(a.batch == b.batch);
  CHECK(a.m == b.m);
  CHECK(a.k == b.k);
  CHECK(a.n == b.n);
  CHECK(a.block_m == b.block_m);
  CHECK(a.block_n == b.block_n);
  CHECK(a.base_m == b.base_m);
  CHECK(a.base_k == b.base_k);
  CHECK(a.base_n == b.base_n);
  CHECK(a.l1_k == b.l1_k);
  CHECK(a.elements == b.elements);
  CHECK(a.ub_tile_elements == b.ub_tile_elements);
  CHECK(a.tiles_per_block == b.tiles_per_block);
  CHECK(a.double_buffer == b.double_buffer);
  CHECK(a.l0a_bytes == b.l0a_bytes);
  CHECK(a.l0b_bytes == b.l0b_bytes);
  CHECK(a.l0c_bytes == b.l0c_bytes);
  CHECK(a.l1_bytes == b.l1_bytes);
  CHECK(a.ub_bytes == b.ub_bytes);
}

void check_same_profile(const CompiledProfile& a, const CompiledProfile& b) {
  INFO("profile " << a.label);
  CHECK(a.label == b.label);
  CHECK(a.input_shapes == b.input_shapes);
  REQUIRE(a.tasks.size() == b.tasks.size());
  for (std::size_t i = 0; i < a.tasks.size(); ++i) {
    const CompiledTask& x = a.tasks[i];
    const CompiledTask& y = b.tasks[i];
    INFO("task " << x.node);
    CHECK(x.node == y.node);
    CHECK(x.unit == y.unit);
    CHECK(x.task_type == y.task_type);
    CHECK(x.compute_dtype == y.compute_dtype);
    CHECK(x.impl_mode == y.impl_mode);
    CHECK(x.input_formats == y.input_formats);
    CHECK(x.output_formats == y.output_formats);
    CHECK(x.workspace_bytes == y.workspace_bytes);
    check_same_tiling(x.tiling, y.tiling);
  }
  REQUIRE(a.values.size() == b.values.size());
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const ValuePlacement& x = a.values[i];
    const ValuePlacement& y = b.values[i];
    INFO("placement " << x.value);
    CHECK(x.value == y.value);
    CHECK(x.region == y.region);
    CHECK(x.dtype == y.dtype);
    CHECK(x.format == y.format);
    CHECK(x.shape == y.shape);
    CHECK(x.device_shape == y.device_shape);
    CHECK(x.offset == y.offset);
    CHECK(x.bytes == y.bytes);
    CHECK(x.first_task == y.first_task);
    CHECK(x.last_task == y.last_task);
  }
  CHECK(a.memory.reuse == b.memory.reuse);
  CHECK(a.memory.activation_bytes == b.memory.activation_bytes);
  CHECK(a.memory.activation_bytes_no_reuse == b.memory.activation_bytes_no_reuse);
  CHECK(a.memory.weight_bytes == b.memory.weight_bytes);
  CHECK(a.memory.workspace_bytes == b.memory.workspace_bytes);
  CHECK(a.memory.input_bytes == b.memory.input_bytes);
  CHECK(a.memory.output_bytes == b.memory.output_bytes);
}

void check_same_options(const CompileOptions& a, const CompileOptions& b) {
  CHECK(a.soc_version == b.soc_version);
  CHECK(a.soc_dir == b.soc_dir);
  CHECK(a.precision_mode == b.precision_mode);
  CHECK(a.op_select_implmode == b.op_select_implmode);
  CHECK(a.optypelist_for_implmode == b.optypelist_for_implmode);
  CHECK(a.keep_dtype_nodes == b.keep_dtype_nodes);
  CHECK(a.output_type == b.output_type);
  CHECK(a.output_type_per_output == b.output_type_per_output);
  CHECK(a.input_format == b.input_format);
  CHECK(a.dynamic_batch_size == b.dynamic_batch_size);
  CHECK(a.dynamic_image_size == b.dynamic_image_size);
  CHECK(a.dynamic_dims == b.dynamic_dims);
  CHECK(a.buffer_optimize == b.buffer_optimize);
  CHECK(a.enable_small_channel == b.enable_small_channel);
  CHECK(a.enable_l2dynamic == b.enable_l2dynamic);
  CHECK(a.disable_reuse_memory == b.disable_reuse_memory);
  CHECK(a.debug_dir == b.debug_dir);
  CHECK(a.op_lib_paths == b.op_lib_paths);
  CHECK(a.command_line == b.command_line);
}

}  // namespace

TEST_CASE("an .om round trip keeps every field of the compiled model") {
  TempDir dir;
  const CompiledModel model = om_test_model();
  write_om(model, dir / "tiny.om");
  const CompiledModel back = read_om(dir / "tiny.om");

  CHECK(back.soc_version == model.soc_version);
  CHECK(back.source_model == model.source_model);
  CHECK(back.framework == model.framework);
  CHECK(back.dynamic_kind == model.dynamic_kind);
  check_same_options(model.options, back.options);
  check_same_graph(model.graph, back.graph);
  REQUIRE(back.profiles.size() == 2);
  for (std::size_t i = 0; i < model.profiles.size(); ++i) check_same_profile(model.profiles[i], back.profiles[i]);

  // Spot checks against the literal values the model was built from.
  const Graph& graph = back.graph;
  CHECK(graph.values.at("x").shape->at(0).symbol == "batch");
  CHECK_FALSE(graph.values.at("conv_out").shape->at(2).is_static());
  CHECK(graph.values.at("conv_out").shape->at(2).symbol.empty());
  CHECK_FALSE(graph.values.at("y").shape.has_value());
  const Node& conv = *graph.find_node("conv1_relu1");
  CHECK(conv.provenance == std::vector<std::string>{"conv1", "bn1", "relu1"});
  CHECK(graph.find_node("cast_conv_out")->provenance.empty());
  CHECK(conv.attributes.require_int("group") == 1);
  CHECK(conv.attributes.require_float("alpha") == 0.5f);
  CHECK(conv.attributes.require_string("auto_pad") == "NOTSET");
  CHECK(conv.attributes.require_tensor("value").to_int64s() == std::vector<std::int64_t>{1, -2, 3, -4});
  CHECK(conv.attributes.get_floats("scales") == std::vector<float>{0.25f, -1.5f});
  CHECK(conv.attributes.get_strings("names") == std::vector<std::string>{"a", "", "c"});
  const Graph& then_branch = *conv.attributes.require_graph("then_branch");
  CHECK(then_branch.nodes()[0]->inputs == std::vector<std::string>{"x", "scale"});
  CHECK(then_branch.nodes()[0]->provenance == std::vector<std::string>{"if1"});
  const auto& tables = std::get<std::vector<Tensor>>(conv.attributes.all().at("tables"));
  REQUIRE(tables.size() == 3);
  CHECK(tables[0].to_int64s() == std::vector<std::int64_t>{-128, 0, 127});
  CHECK(tables[1].to_int64s() == std::vector<std::int64_t>{1, 0});
  CHECK_FALSE(tables[2].defined());
  const auto& branches = std::get<std::vector<std::shared_ptr<Graph>>>(conv.attributes.all().at("branches"));
  REQUIRE(branches.size() == 2);
  CHECK(branches[1]->initializers.at("scale").to_doubles() == std::vector<double>{-1.0});
  CHECK(graph.find_node("reshape")->domain == "com.microsoft");
  CHECK(back.profiles[1].input_shapes.at("x") == Shape{4, 32, 8, 8});
  CHECK(back.profiles[1].tasks[0].tiling.block_dim == 8);
}

TEST_CASE("fp16-placed float32 weights are stored as fp16 and come back as the same float32 values") {
  const CompiledModel model = om_test_model(DType::Float16);
  const CompiledModel back = decode_om(encode_om(model), "tiny.om");
  const Tensor& w = back.graph.initializers.at("w");
  CHECK(w.dtype() == DType::Float32);
  CHECK(w.format() == Format::NCHW);
  const std::vector<float> expected = om_test_weight_values();
  std::vector<std::uint32_t> expected_bits;
  for (const float value : expected) expected_bits.push_back(std::bit_cast<std::uint32_t>(value));
  CHECK(float_bits(w) == expected_bits);  // bit for bit: -0.0, 65504, 2^-14 and 2^-24 included
  CHECK(back.graph.initializers.at("b").to_doubles() == std::vector<double>(64, -0.125));
  CHECK(back.graph.initializers.at("target_shape").to_int64s() == std::vector<std::int64_t>{1, -1});
}

TEST_CASE("a weight that is not fp16-representable comes back rounded to the nearest fp16") {
  CompiledModel model = om_test_model(DType::Float16);
  model.graph.initializers["b"] = Tensor::from_vector<float>({64}, std::vector<float>(64, 0.1f));
  const CompiledModel back = decode_om(encode_om(model), "tiny.om");
  // 0.1 is 0x2E66 in fp16: 1.599609375 * 2^-4.
  CHECK(back.graph.initializers.at("b").to_doubles() == std::vector<double>(64, 0.0999755859375));
}

TEST_CASE("an fp16 .om is about half the size of the fp32 one: the weights take half the bytes") {
  const std::size_t fp16 = encode_om(om_test_model(DType::Float16)).size();
  const std::size_t fp32 = encode_om(om_test_model(DType::Float32)).size();
  const std::size_t saved = 2 * (kOmTestWeightElements + 64);  // w and b: 2 bytes less per element
  MESSAGE("fp32 .om " << fp32 << " bytes, fp16 .om " << fp16 << " bytes");
  // Length prefixes of the shorter byte strings may shrink by a few bytes more.
  CHECK(fp32 - fp16 >= saved);
  CHECK(fp32 - fp16 <= saved + 16);
  CHECK(static_cast<double>(fp16) / static_cast<double>(fp32) < 0.55);
  // The fp32 build keeps them at float32.
  const CompiledModel back = decode_om(encode_om(om_test_model(DType::Float32)), "tiny32.om");
  CHECK(back.graph.initializers.at("w").to_doubles() == om_test_model().graph.initializers.at("w").to_doubles());
}

TEST_CASE("names that are not UTF-8 (ONNX does not check them) read back unchanged") {
  CompiledModel model = om_test_model();
  const std::string latin1 = "caf\xe9";
  model.graph.find_node("check")->provenance = {latin1, "\xff\xfe"};
  model.graph.metadata["doc_string"] = latin1;
  const CompiledModel back = decode_om(encode_om(model), "latin1.om");
  CHECK(back.graph.find_node("check")->provenance == std::vector<std::string>{latin1, "\xff\xfe"});
  CHECK(back.graph.metadata.at("doc_string") == latin1);
}

TEST_CASE("one model always gives the same .om bytes") {
  CHECK(encode_om(om_test_model()) == encode_om(om_test_model()));
}

TEST_CASE("the header: magic, version 1, payload length and the payload's CRC-32") {
  const std::vector<std::byte> file = encode_om(om_test_model());
  REQUIRE(file.size() > kOmHeaderBytes);
  CHECK(std::memcmp(file.data(), "ASCOM\0\r\n", 8) == 0);
  std::uint32_t version = 0, checksum = 0;
  std::uint64_t length = 0;
  std::memcpy(&version, file.data() + 8, 4);
  std::memcpy(&checksum, file.data() + 12, 4);
  std::memcpy(&length, file.data() + 16, 8);
  CHECK(version == 1);
  CHECK(length == file.size() - kOmHeaderBytes);
  CHECK(checksum == crc32(std::span(file).subspan(kOmHeaderBytes)));
}

TEST_CASE("crc32 is the IEEE CRC-32 (zlib's): the standard check value") {
  const std::string check = "123456789";
  CHECK(crc32(std::as_bytes(std::span(check.data(), check.size()))) == 0xCBF43926u);
  CHECK(crc32({}) == 0u);
}
