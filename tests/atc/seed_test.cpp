// The seed's three atc command lines, end to end, and what --mode=1 shows of each .om: formats,
// tiling, provenance (the ONNX nodes behind every op) and the dynamic profiles.
#include <doctest/doctest.h>

#include <set>

#include "atc_support.hpp"

namespace asc::atc::testing {
namespace {

using host::testing::ScratchDir;
namespace fs = std::filesystem;

bool seed_output_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The command lines use the seed's bare file names, so the model is linked into the cwd.
void link_model(const ScratchDir& cwd, const std::string& generated, const std::string& as) {
  fs::create_symlink(model(generated), cwd / as);
}

void check_success(const AtcRun& run, const std::string& om) {
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CHECK(run.out_lines == std::vector<std::string>{kStartLine, "ATC run success, the model save path is ./" + om});
}

// Every op but the compiler's inserted Casts traces back to ONNX nodes, at least one op stands for
// several (a fusion), and the device formats and tiling of the cube ops are recorded.
void check_ops(const nlohmann::json& json) {
  bool fused = false, nc1hwc0 = false, fractal_z = false, tiled_cube = false;
  for (const auto& op : json.at("ops")) {
    INFO(op.at("name"));
    // ATC's inserted Cast/TransData ops carry no original names; every other op does.
    CHECK(op.at("original_op_names").empty() == (op.at("type") == "Cast" && op.at("name").get<std::string>().rfind("Cast_", 0) == 0));
    fused = fused || op.at("original_op_names").size() >= 2;
    for (const auto& task : op.at("tasks")) {
      for (const auto& format : task.at("output_formats")) nc1hwc0 = nc1hwc0 || format == "NC1HWC0";
      for (const auto& format : task.at("input_formats")) fractal_z = fractal_z || format == "FRACTAL_Z";
      if (op.at("type") == "Conv" || seed_output_contains(op.at("type").get<std::string>(), "Conv")) {
        const auto& tiling = task.at("tiling");
        CHECK(tiling.at("block_dim") >= 1);
        tiled_cube = tiled_cube || (tiling.at("base_m") > 0 && tiling.at("base_k") > 0 && tiling.at("base_n") > 0);
      }
    }
  }
  CHECK(fused);
  CHECK(nc1hwc0);
  CHECK(fractal_z);
  CHECK(tiled_cube);
}

TEST_CASE("seed line 1: ResNet-50, static, force_fp16 halves the weights") {
  ScratchDir cwd;
  link_model(cwd, "resnet50.onnx", "resnet50.onnx");
  const auto run = run_atc({"--model=resnet50.onnx", "--framework=5", "--output=resnet50", "--soc_version=Ascend310P3",
                            "--input_format=NCHW", "--log=info"},
                           cwd);
  check_success(run, "resnet50.om");
  CHECK(seed_output_contains(run.err, "fusion.optimize: kernels "));
  // The seed's table: 98 MB ONNX (fp32) -> 49 MB after fp16. Weights dominate both files.
  const double ratio = static_cast<double>(fs::file_size(cwd / "resnet50.om")) /
                       static_cast<double>(fs::file_size(model("resnet50.onnx")));
  CHECK(ratio > 0.45);
  CHECK(ratio < 0.6);
  const auto json = om_json(cwd / "resnet50.om", cwd);
  CHECK(json.at("header").at("compile_options").at("precision_mode") == "force_fp16");
  REQUIRE(json.at("profiles").size() == 1);
  CHECK(json.at("profiles")[0].at("input_shapes").at("input") == nlohmann::json::array({1, 3, 224, 224}));
  check_ops(json);
}

TEST_CASE("seed line 2: input_shape, allow_fp32_to_fp16, an FP16 output (on MobileNetV2)") {
  ScratchDir cwd;
  link_model(cwd, "mobilenet_v2.onnx", "mobilenet_v2.onnx");
  const auto run = run_atc({"--model=mobilenet_v2.onnx", "--framework=5", "--output=mobilenet_v2",
                            "--soc_version=Ascend310P3", "--input_shape=input:1,3,224,224",
                            "--precision_mode=allow_fp32_to_fp16", "--output_type=output:FP16", "--log=debug"},
                           cwd);
  check_success(run, "mobilenet_v2.om");
  CHECK(seed_output_contains(run.err, "[DEBUG]"));
  const auto json = om_json(cwd / "mobilenet_v2.om", cwd);
  CHECK(json.at("header").at("compile_options").at("precision_mode") == "allow_fp32_to_fp16");
  REQUIRE(json.at("profiles").size() == 1);
  CHECK(json.at("profiles")[0].at("input_shapes").at("input") == nlohmann::json::array({1, 3, 224, 224}));
  bool output_fp16 = false;
  for (const auto& value : json.at("profiles")[0].at("values"))
    if (value.at("value") == "output") output_fp16 = value.at("dtype") == "float16";
  CHECK(output_fp16);
  check_ops(json);
}

TEST_CASE("seed line 3: a YOLOv5-style model with three image-size profiles in one .om") {
  ScratchDir cwd;
  link_model(cwd, "yolov5.onnx", "yolov5.onnx");
  const auto run = run_atc({"--model=yolov5.onnx", "--framework=5", "--output=yolov5_dynamic",
                            "--soc_version=Ascend310P3", "--input_shape=images:1,3,640,640",
                            "--dynamic_dims=1,3,320,320;1,3,640,640;1,3,1280,1280",
                            "--dynamic_shape=images:[1,3,320,320];[1,3,640,640];[1,3,1280,1280]",
                            "--precision_mode=allow_fp32_to_fp16", "--enable_scope_fusion=True", "--log=info"},
                           cwd);
  check_success(run, "yolov5_dynamic.om");
  const auto json = om_json(cwd / "yolov5_dynamic.om", cwd);
  CHECK(json.at("header").at("dynamic_kind") == "dims");
  const auto& profiles = json.at("profiles");
  REQUIRE(profiles.size() == 3);
  std::set<std::vector<int>> shapes;
  for (const auto& profile : profiles) shapes.insert(profile.at("input_shapes").at("images").get<std::vector<int>>());
  CHECK(shapes == std::set<std::vector<int>>{{1, 3, 320, 320}, {1, 3, 640, 640}, {1, 3, 1280, 1280}});
  // More pixels, more activation memory.
  std::vector<std::int64_t> activation;
  for (const auto& profile : profiles) activation.push_back(profile.at("memory").at("activation_bytes"));
  std::sort(activation.begin(), activation.end());
  CHECK(activation[0] < activation[1]);
  CHECK(activation[1] < activation[2]);
  check_ops(json);
}

}  // namespace
}  // namespace asc::atc::testing
