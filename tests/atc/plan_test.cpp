// The planned pipeline: with the real plugins loaded, every flag arrives as the parameter of the
// stage that uses it (checked before anything runs, as atc does).
#include <doctest/doctest.h>

#include <map>

#include "atc_flags.hpp"
#include "atc_pipeline.hpp"
#include "test_support.hpp"

namespace asc::atc {
namespace {

using host::testing::ScratchDir;
using host::testing::write_text;

// Stage name -> its planned parameters.
std::map<std::string, std::map<std::string, std::string>> planned(const std::vector<std::string>& arguments) {
  const auto request = build_request(host::parse_ascend_flags("atc", atc_flag_specs(), arguments), "atc (test)");
  const auto plugins = load_plugins(request);
  const auto plan = plan_request(request, *plugins);
  std::map<std::string, std::map<std::string, std::string>> stages;
  for (const auto& stage : plan.stages) stages[stage.definition->name] = stage.params.all();
  return stages;
}

TEST_CASE("atc.yaml: onnx.load, fusion.optimize, npusim.compile with the defaults") {
  const auto stages = planned({"--model=m.onnx", "--framework=5", "--output=out/m", "--soc_version=Ascend910"});
  REQUIRE(stages.size() == 3);
  CHECK(stages.at("onnx.load").at("model") == "m.onnx");
  CHECK(stages.at("onnx.load").at("input_shape").empty());
  CHECK(stages.at("onnx.load").at("out_nodes").empty());
  CHECK(stages.at("fusion.optimize").at("enable_scope_fusion") == "false");
  const auto& compile = stages.at("npusim.compile");
  CHECK(compile.at("output") == "out/m.om");
  CHECK(compile.at("soc_version") == "Ascend910");
  CHECK(compile.at("precision_mode").empty());  // the compiler's default, force_fp16
  CHECK(compile.at("enable_l2dynamic") == "true");
  CHECK(compile.at("disable_reuse_memory") == "false");
  CHECK(compile.at("command_line") == "atc (test)");
}

TEST_CASE("every flag reaches its stage parameter") {
  ScratchDir scratch;
  write_text(scratch / "keep.cfg", "conv1\nfc\n");
  std::filesystem::create_directories(scratch / "ops");
  const auto ops = std::filesystem::weakly_canonical(scratch / "ops").string();
  const auto stages = planned({"--model=m.onnx", "--framework=5", "--output=m", "--soc_version=Ascend310P3",
                               "--input_shape=x:-1,3,-1,-1", "--dynamic_dims=1,32,32;2,64,64", "--out_nodes=fc:0",
                               "--enable_scope_fusion", "--fusion_switch_file=f.cfg",
                               "--precision_mode=must_keep_origin_dtype", "--op_select_implmode=high_performance",
                               "--optypelist_for_implmode=Sigmoid", "--keep_dtype=" + (scratch / "keep.cfg").string(),
                               "--output_type=fc:0:FP16", "--input_format=ND", "--buffer_optimize=l1_optimize",
                               "--enable_small_channel=1", "--enable_l2dynamic=0", "--disable_reuse_memory=1",
                               "--debug_dir=dump", "--op_lib_path=" + (scratch / "ops").string()});
  const std::map<std::string, std::map<std::string, std::string>> expected{
      {"onnx.load", {{"model", "m.onnx"}, {"input_shape", "x:-1,3,-1,-1"}, {"out_nodes", "fc:0"}}},
      {"fusion.optimize", {{"enable_scope_fusion", "true"}, {"fusion_switch_file", "f.cfg"}}},
      {"npusim.compile",
       {{"output", "m.om"}, {"soc_version", "Ascend310P3"}, {"dynamic_dims", "1,32,32;2,64,64"},
        {"precision_mode", "must_keep_origin_dtype"}, {"op_select_implmode", "high_performance"},
        {"optypelist_for_implmode", "Sigmoid"}, {"keep_dtype_nodes", "conv1,fc"}, {"output_type", "fc:0:FP16"},
        {"input_format", "ND"}, {"buffer_optimize", "l1_optimize"}, {"enable_small_channel", "true"},
        {"enable_l2dynamic", "false"}, {"disable_reuse_memory", "true"}, {"debug_dir", "dump"},
        {"op_lib_paths", ops}}},
  };
  for (const auto& stage_params : expected)
    for (const auto& [name_binding, value] : stage_params.second) {
      const auto& stage = stage_params.first;  // not a structured binding: clang 14 cannot capture one
      const auto& name = name_binding;
      INFO(stage << " " << name);
      CHECK(stages.at(stage).at(name) == value);
    }
}

TEST_CASE("the two other dynamic kinds reach npusim.compile") {
  const std::vector<std::string> base{"--model=m.onnx", "--framework=5", "--output=m", "--soc_version=Ascend310P3"};
  auto batch = base;
  batch.insert(batch.end(), {"--input_shape=x:-1,3,8,8", "--dynamic_batch_size=1,2,4"});
  CHECK(planned(batch).at("npusim.compile").at("dynamic_batch_size") == "1,2,4");
  auto image = base;
  image.insert(image.end(), {"--input_shape=x:1,3,-1,-1", "--dynamic_image_size=32,32;64,64"});
  CHECK(planned(image).at("npusim.compile").at("dynamic_image_size") == "32,32;64,64");
}

TEST_CASE("--mode=1 plans npusim.om_to_json") {
  const auto stages = planned({"--mode=1", "--om=m.om", "--json=m.json"});
  REQUIRE(stages.size() == 1);
  CHECK(stages.at("npusim.om_to_json") ==
        std::map<std::string, std::string>{{"om", "m.om"}, {"json", "m.json"}, {"layout", "asc"}});
  CHECK(planned({"--mode=1", "--om=m.om", "--json=m.json", "--json_layout=atc"}).at("npusim.om_to_json").at("layout") ==
        "atc");
}

}  // namespace
}  // namespace asc::atc
