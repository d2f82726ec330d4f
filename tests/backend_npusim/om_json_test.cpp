// om_to_json (atc --mode=1) and the npusim.om_to_json stage, checked against the hand-built model.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <asc/sdk/pipeline.hpp>
#include <fstream>

#include "om/om_file.hpp"
#include "om/om_to_json_stage.hpp"
#include "om_test_model.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;
using namespace asc::npusim;
using Json = nlohmann::ordered_json;

TEST_CASE("om_to_json header: format version, SoC, framework, source model, command line, options") {
  const Json json = om_to_json(om_test_model());
  const Json& header = json.at("header");
  CHECK(header.at("format_version") == 1);
  CHECK(header.at("soc_version") == "Ascend310P3");
  CHECK(header.at("framework") == "ONNX");
  CHECK(header.at("source_model") == "models/tiny_net.onnx");
  CHECK(header.at("command_line") ==
        "atc --model=models/tiny_net.onnx --framework=5 --output=tiny --soc_version=Ascend310P3 --dynamic_batch_size=1,4");
  CHECK(header.at("dynamic_kind") == "batch");
  const Json& options = header.at("compile_options");
  CHECK(options.at("precision_mode") == "allow_mix_precision");
  CHECK(options.at("optypelist_for_implmode") == Json::array({"Conv", "Softmax"}));
  CHECK(options.at("output_type_per_output") == Json{{"check:0", "UINT8"}, {"reshape:0", "FP32"}});
  CHECK(options.at("enable_l2dynamic") == false);
  CHECK(options.at("disable_reuse_memory") == true);
}

TEST_CASE("om_to_json graph inputs and outputs: symbolic dims by name, unknown ones -1, unknown rank null") {
  const Json graph = om_to_json(om_test_model()).at("graph");
  CHECK(graph.at("name") == "tiny_net");
  CHECK(graph.at("opset_imports") == Json{{"ai.onnx", 17}, {"com.microsoft", 1}});
  CHECK(graph.at("inputs") == Json::array({{{"name", "x"}, {"dtype", "float32"}, {"shape", {"batch", 32, 8, 8}}}}));
  const Json& outputs = graph.at("outputs");
  REQUIRE(outputs.size() == 2);
  CHECK(outputs[0] == Json{{"name", "y"}, {"dtype", "float16"}, {"shape", nullptr}});
  CHECK(outputs[1] == Json{{"name", "flag"}, {"dtype", "undefined"}, {"shape", nullptr}});
}

TEST_CASE("om_to_json ops: provenance as original_op_names, and per profile formats, tiling and workspace") {
  const Json ops = om_to_json(om_test_model()).at("ops");
  REQUIRE(ops.size() == 4);
  const Json& conv = ops[0];
  CHECK(conv.at("name") == "conv1_relu1");
  CHECK(conv.at("type") == "Conv");
  CHECK(conv.at("original_op_names") == Json::array({"conv1", "bn1", "relu1"}));
  CHECK(ops[1].at("original_op_names") == Json::array());  // the inserted Cast
  CHECK(ops[2].at("domain") == "com.microsoft");
  CHECK(ops[2].at("inputs") == Json::array({"conv_out_fp16", "target_shape", ""}));

  const Json& attributes = conv.at("attributes");
  CHECK(attributes.at("group") == 1);
  CHECK(attributes.at("alpha") == 0.5);
  CHECK(attributes.at("pads") == Json::array({1, 1, 1, 1}));
  CHECK(attributes.at("value") == Json{{"tensor", {{"dtype", "int32"}, {"shape", {2, 2}}}}});
  CHECK(attributes.at("then_branch") == Json{{"graph", {{"name", "then"}, {"nodes", 1}}}});
  CHECK(attributes.at("tables").at(2) == Json{{"tensor", nullptr}});

  const Json& tasks = conv.at("tasks");
  REQUIRE(tasks.size() == 2);
  CHECK(tasks[0].at("profile") == "batch=1");
  CHECK(tasks[1].at("profile") == "batch=4");
  CHECK(tasks[0].at("unit") == "cube");
  CHECK(tasks[0].at("task_type") == "AI_CORE");
  CHECK(tasks[0].at("compute_dtype") == "float16");
  CHECK(tasks[0].at("impl_mode") == "high_performance");
  CHECK(tasks[0].at("input_formats") == Json::array({"NC1HWC0", "FRACTAL_Z", "ND"}));
  CHECK(tasks[0].at("output_formats") == Json::array({"NC1HWC0"}));
  CHECK(tasks[0].at("tiling").at("block_dim") == 2);
  CHECK(tasks[1].at("tiling").at("block_dim") == 8);
  CHECK(tasks[1].at("tiling").at("m") == 256);
  CHECK(tasks[0].at("tiling").at("l1_bytes") == 55296);
  CHECK(tasks[1].at("workspace_bytes") == 4096);
  CHECK(ops[3].at("tasks")[0].at("output_formats") == Json::array({"FRACTAL_NZ"}));
  CHECK(ops[3].at("tasks")[0].at("tiling").at("double_buffer") == false);
}

TEST_CASE("om_to_json profiles: label, input shapes and the memory plan with its total") {
  const Json profiles = om_to_json(om_test_model()).at("profiles");
  REQUIRE(profiles.size() == 2);
  CHECK(profiles[0].at("label") == "batch=1");
  CHECK(profiles[1].at("input_shapes") == Json{{"x", {4, 32, 8, 8}}});
  const Json& memory = profiles[0].at("memory");
  CHECK(memory.at("reuse") == true);
  CHECK(memory.at("activation_bytes") == 8192);
  CHECK(memory.at("activation_bytes_no_reuse") == 16384);
  // 8192 activations + 74000 weights + 1024 workspace + 4096 input + 9216 output.
  CHECK(memory.at("total_bytes") == 96528);
  const Json& w = profiles[0].at("values")[1];
  CHECK(w.at("value") == "w");
  CHECK(w.at("region") == "weight");
  CHECK(w.at("format") == "FRACTAL_Z");
  CHECK(w.at("device_shape") == Json::array({18, 4, 16, 16}));
  CHECK(profiles[0].at("values")[4].at("first_task") == 0);
}

TEST_CASE("om_to_json weights: stored dtype, host dtype, shape and bytes, no data") {
  const Json weights = om_to_json(om_test_model()).at("weights");
  REQUIRE(weights.size() == 3);
  CHECK(weights[0] == Json{{"name", "b"}, {"dtype", "float16"}, {"host_dtype", "float32"}, {"shape", {64}},
                           {"format", "ND"}, {"bytes", 128}});
  CHECK(weights[1] == Json{{"name", "target_shape"}, {"dtype", "int64"}, {"host_dtype", "int64"}, {"shape", {2}},
                           {"format", "ND"}, {"bytes", 16}});
  CHECK(weights[2] == Json{{"name", "w"}, {"dtype", "float16"}, {"host_dtype", "float32"}, {"shape", {64, 32, 3, 3}},
                           {"format", "NCHW"}, {"bytes", 36864}});
  const Json fp32 = om_to_json(om_test_model(DType::Float32)).at("weights");
  CHECK(fp32[2].at("dtype") == "float32");
  CHECK(fp32[2].at("bytes") == 73728);
}

TEST_CASE("stage npusim.om_to_json reads an .om and writes its JSON") {
  TempDir dir;
  write_om(om_test_model(), dir / "tiny.om");
  PipelineContext ctx{plugin_registry()};
  StageParams params;
  params.set("om", (dir / "tiny.om").string());
  params.set("json", (dir / "tiny.json").string());
  om_to_json_stage().run(ctx, params);
  std::ifstream in(dir / "tiny.json");
  const Json json = Json::parse(in);
  CHECK(json.at("ops")[0].at("original_op_names") == Json::array({"conv1", "bn1", "relu1"}));
  CHECK(json.at("header").at("soc_version") == "Ascend310P3");
  CHECK(ctx.artifacts.at("om_json") == dir / "tiny.json");

  params.set("om", (dir / "absent.om").string());
  params.set("json", (dir / "absent.json").string());
  const Error error = error_from([&] { om_to_json_stage().run(ctx, params); });
  CHECK(error.code() == ErrorCode::FileNotFound);
  CHECK_FALSE(std::filesystem::exists(dir / "absent.json"));
}
