// The atc executable: console lines, exit codes, no .om after a failure, and every flag
// recorded in the .om it writes (read back with --mode=1).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "atc_support.hpp"

namespace asc::atc::testing {
namespace {

using host::testing::ScratchDir;
using host::testing::write_text;
namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool any_om(const ScratchDir& dir) {
  for (const auto& entry : fs::recursive_directory_iterator(dir.path()))
    if (entry.path().extension() == ".om" || contains(entry.path().filename().string(), ".om.")) return true;
  return false;
}

// A failed run: ATC's two lines, then the coded line; the exit code of the code's class.
std::string expect_failure(const std::vector<std::string>& arguments, const std::string& code, int exit_code) {
  ScratchDir cwd;
  const auto run = run_atc(arguments, cwd);
  CHECK(run.exit_code == exit_code);
  REQUIRE(run.out_lines.size() >= 3);
  CHECK(run.out_lines[0] == kStartLine);
  CHECK(run.out_lines[1] == kFailedLine);
  CHECK_MESSAGE(run.out_lines[2].rfind(code + ": ", 0) == 0, run.out_lines[2]);
  CHECK_FALSE(any_om(cwd));
  std::string text;
  for (std::size_t i = 2; i < run.out_lines.size(); ++i) text += run.out_lines[i] + "\n";
  return text;
}

std::vector<std::string> tiny_line(std::vector<std::string> extra) {
  std::vector<std::string> arguments{"--model=" + model("tiny.onnx").string(), "--framework=5", "--output=tiny",
                                     "--soc_version=Ascend310P3"};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  return arguments;
}

TEST_CASE("--help prints the grouped flags and exits 0") {
  ScratchDir cwd;
  for (const std::string help : {"--help", "-h", "--h"}) {
    const auto run = run_atc({help}, cwd);
    CHECK(run.exit_code == 0);
    REQUIRE_FALSE(run.out_lines.empty());
    CHECK(run.out_lines.front().rfind("Usage: atc", 0) == 0);
    std::string text;
    for (const auto& line : run.out_lines) text += line + "\n";
    for (const std::string group : {"General:", "Input:", "Output:", "Target:", "Feature:", "Model Tuning:",
                                    "Operator Tuning:", "Debug:"})
      CHECK(contains(text, group));
    CHECK_FALSE(contains(text, kStartLine));
  }
}

TEST_CASE("bad command lines fail with ATC's lines, a coded error and its exit code") {
  CHECK(contains(expect_failure({"--model=m.onnx", "--framwork=5"}, "EE5008", 15), "did you mean '--framework'"));
  CHECK(contains(expect_failure({"--framework=5", "--output=m", "--soc_version=Ascend310P3"}, "EE5008", 15),
                 "--model is empty"));
  CHECK(contains(expect_failure(tiny_line({"--framework=3"}), "EE5008", 15), "given twice"));
  CHECK(contains(expect_failure({"--model=m.onnx", "--framework=3", "--output=m", "--soc_version=Ascend310P3"},
                                "EE1008", 11),
                 "framework 3 (TensorFlow) is not supported yet"));
  CHECK(contains(expect_failure({"--model=m.onnx", "--framework=9", "--output=m", "--soc_version=Ascend310P3"},
                                "EE5008", 15),
                 "Value '9' for --framework"));
  CHECK(contains(expect_failure(tiny_line({"--input_shape=input:1,3,x,16"}), "EE1009", 11), "'x'"));
  CHECK(contains(expect_failure(tiny_line({"--input_shape=input:-1,3,16,16", "--dynamic_batch_size=1,2",
                                           "--dynamic_dims=1;2"}),
                                "EE5008", 15),
                 "mutually exclusive"));
  CHECK(contains(expect_failure({"--mode=1", "--json=x.json"}, "EE5008", 15), "--om is empty"));
  CHECK(contains(expect_failure({"--log=verbose"}, "EE5008", 15), "Value 'verbose' for --log"));
  CHECK(contains(expect_failure({"stray"}, "EE5008", 15), "unexpected argument 'stray'"));
}

TEST_CASE("errors from the pipeline's stages name the stage, and leave no .om") {
  const auto missing = expect_failure({"--model=nope.onnx", "--framework=5", "--output=m", "--soc_version=Ascend310P3"},
                                      "EE1001", 11);
  CHECK(contains(missing, "nope.onnx"));
  CHECK(contains(missing, "in stage 'onnx.load'"));
  CHECK(contains(expect_failure(tiny_line({"--input_shape=nosuch:1,3,16,16"}), "EE1009", 11), "nosuch"));
  CHECK(contains(expect_failure(tiny_line({"--out_nodes=relu9:0"}), "EE1009", 11), "relu9"));
  CHECK(contains(expect_failure(tiny_line({"--out_nodes=relu1:1"}), "EE1009", 11), "output 1 of node 'relu1'"));
  const auto soc = expect_failure({"--model=" + model("tiny.onnx").string(), "--framework=5", "--output=tiny",
                                   "--soc_version=Ascend999"},
                                  "EE5007", 15);
  for (const std::string known : {"Ascend310", "Ascend310P3", "Ascend910", "Ascend910B1", "Ascend910B4"})
    CHECK_MESSAGE(contains(soc, known), soc);
  CHECK(contains(expect_failure(tiny_line({"--fusion_switch_file=nope.cfg"}), "EE4001", 14), "nope.cfg"));
  CHECK(contains(expect_failure(tiny_line({"--keep_dtype=nope.cfg"}), "EE4001", 14), "nope.cfg"));
  CHECK(contains(expect_failure({"--model=" + model("tiny.onnx").string(), "--framework=5",
                                 "--output=no_such_dir/tiny", "--soc_version=Ascend310P3"},
                                "EE4003", 14),
                 "no_such_dir/tiny.om"));
}

TEST_CASE("bad files: a corrupt model, switch file, plugin or .om") {
  ScratchDir files;
  write_text(files / "bad.onnx", "not a protobuf");
  write_text(files / "bad.json", "{\"Switch\": {");
  write_text(files / "bad.om", "not an om");
  fs::create_directories(files / "ops");
  write_text(files / "ops" / "libbroken.so", "not a shared library");
  CHECK(contains(expect_failure({"--model=" + (files / "bad.onnx").string(), "--framework=5", "--output=m",
                                 "--soc_version=Ascend310"},
                                "EE1002", 11),
                 "bad.onnx"));
  CHECK(contains(expect_failure(tiny_line({"--fusion_switch_file=" + (files / "bad.json").string()}), "EE5001", 15),
                 "bad.json:"));
  const auto plugin = expect_failure(tiny_line({"--op_lib_path=" + (files / "ops").string()}), "EE6001", 16);
  CHECK(contains(plugin, "libbroken.so was not loaded"));
  // A plugin built for another SDK keeps its own code, as `asc plugins` and docs/errors.md give it.
  fs::create_directories(files / "old_ops");
  fs::copy_file(ASC_WRONG_SDK_PLUGIN, files / "old_ops" / "wrong_sdk.so");
  const auto old_sdk = expect_failure(tiny_line({"--op_lib_path=" + (files / "old_ops").string()}), "EE6003", 16);
  CHECK(contains(old_sdk, "wrong_sdk.so was not loaded"));
  CHECK(contains(old_sdk, "major.minor must match"));
  CHECK(contains(expect_failure({"--mode=1", "--om=" + (files / "bad.om").string(), "--json=x.json"}, "EE4004", 14),
                 "bad.om"));
  CHECK(contains(expect_failure({"--mode=1", "--om=none.om", "--json=x.json"}, "EE4001", 14), "none.om"));
}

TEST_CASE("the compiler's errors: no kernel for the dtype the mode asks (EE2002), device memory exceeded (EE3001)") {
  // The seed's case: Ascend310P3 has no fp32 convolution, so must_keep_origin_dtype cannot keep it.
  const auto origin = expect_failure(tiny_line({"--precision_mode=must_keep_origin_dtype"}), "EE2002", 12);
  CHECK(contains(origin, "node 'conv1'"));
  CHECK(contains(origin, "float32"));
  ScratchDir keep;
  write_text(keep / "keep.cfg", "conv2\n");
  CHECK(contains(expect_failure(tiny_line({"--keep_dtype=" + (keep / "keep.cfg").string()}), "EE2002", 12),
                 "node 'conv2'"));
  // 64 x 3 x 8192 x 8192 inputs: tens of GB against Ascend310's 8 GiB.
  const auto memory = expect_failure({"--model=" + model("tiny.onnx").string(), "--framework=5", "--output=big",
                                      "--soc_version=Ascend310", "--input_shape=input:64,3,8192,8192"},
                                     "EE3001", 13);
  CHECK(contains(memory, "Ascend310 has 8589934592 bytes"));
}

TEST_CASE("--op_lib_path loads custom operator plugins for the compile, and the .om records the directory") {
  const std::vector<std::string> line{"--model=" + model("custom_op.onnx").string(), "--framework=5", "--output=custom",
                                      "--soc_version=Ascend310P3"};
  const auto missing = expect_failure(line, "EE2001", 12);
  CHECK(contains(missing, "node 'custom1' (com.example.MyCustomOp)"));
  ScratchDir cwd;
  auto with_plugin = line;
  with_plugin.push_back(std::string("--op_lib_path=") + ASC_ATC_CUSTOM_OPS_DIR);
  const auto run = run_atc(with_plugin, cwd);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto json = om_json(cwd / "custom.om", cwd);
  CHECK(json.at("header").at("compile_options").at("op_lib_paths") ==
        nlohmann::json::array({fs::weakly_canonical(ASC_ATC_CUSTOM_OPS_DIR).string()}));
  bool found = false;
  for (const auto& op : json.at("ops")) found = found || op.at("type") == "MyCustomOp";
  CHECK(found);
  // A plugin whose inference throws a non-coded exception: EE1005 naming the node and the plugin,
  // not an internal error blamed on the fusion stage.
  const auto thrown = expect_failure({"--model=" + model("custom_throwing.onnx").string(), "--framework=5",
                                      "--output=thrown", "--soc_version=Ascend310P3",
                                      std::string("--op_lib_path=") + ASC_ATC_CUSTOM_OPS_DIR},
                                     "EE1005", 11);
  CHECK(contains(thrown, "node 'throw1'"));
  CHECK(contains(thrown, "operator plugin 'atc_test_custom_ops'"));
  CHECK(contains(thrown, "vector::at out of range"));
  CHECK_FALSE(contains(thrown, "EE9001"));
}

TEST_CASE("a conversion prints the seed's two lines and writes the .om; --log=info shows the kernel counts") {
  ScratchDir cwd;
  const auto run = run_atc(tiny_line({"--log=info"}), cwd);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CHECK(run.out_lines == std::vector<std::string>{kStartLine, "ATC run success, the model save path is ./tiny.om"});
  CHECK(fs::is_regular_file(cwd / "tiny.om"));
  // tiny.onnx: 7 nodes, 6 kernels (Flatten launches none); fusion merges at least conv1+relu1.
  CHECK_MESSAGE(contains(run.err, "fusion.optimize: kernels 6 -> "), run.err);
  CHECK_FALSE(contains(run.err, "fusion.optimize: kernels 6 -> 6 "));
}

TEST_CASE("every compile flag is recorded in the .om") {
  ScratchDir cwd;
  write_text(cwd / "keep.cfg", "sig\n");
  write_text(cwd / "fusion.cfg", "ConvActivationFusion:off\n");
  fs::create_directories(cwd / "ops");
  fs::create_directories(cwd / "dump");
  const auto run = run_atc(tiny_line({"--precision_mode=allow_fp32_to_fp16", "--op_select_implmode=high_precision",
                                      "--optypelist_for_implmode=Sigmoid", "--keep_dtype=keep.cfg",
                                      "--output_type=FP16", "--input_format=NCHW", "--buffer_optimize=off_optimize",
                                      "--enable_small_channel=1", "--enable_l2dynamic=false",
                                      "--disable_reuse_memory=1", "--debug_dir=dump", "--op_lib_path=ops",
                                      "--fusion_switch_file=fusion.cfg", "--enable_scope_fusion",
                                      "--input_shape=input:2,3,16,16", "--out_nodes=sig:0"}),
                           cwd);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto json = om_json(cwd / "tiny.om", cwd);
  const auto& header = json.at("header");
  const auto& options = header.at("compile_options");
  CHECK(header.at("soc_version") == "Ascend310P3");
  CHECK(options.at("precision_mode") == "allow_fp32_to_fp16");
  CHECK(options.at("op_select_implmode") == "high_precision");
  CHECK(options.at("optypelist_for_implmode") == nlohmann::json::array({"Sigmoid"}));
  CHECK(options.at("keep_dtype_nodes") == nlohmann::json::array({"sig"}));
  CHECK(options.at("output_type") == "FP16");
  CHECK(options.at("input_format") == "NCHW");
  CHECK(options.at("buffer_optimize") == "off_optimize");
  CHECK(options.at("enable_small_channel") == true);
  CHECK(options.at("enable_l2dynamic") == false);
  CHECK(options.at("disable_reuse_memory") == true);
  CHECK(options.at("debug_dir") == "dump");
  CHECK(options.at("op_lib_paths") == nlohmann::json::array({fs::weakly_canonical(cwd / "ops").string()}));
  const std::string command_line = header.at("command_line");
  CHECK(command_line.rfind("atc --model=", 0) == 0);
  CHECK(contains(command_line, " --out_nodes=sig:0"));
  // onnx.load: --input_shape and --out_nodes shaped the graph.
  CHECK(json.at("graph").at("outputs").size() == 1);
  CHECK(json.at("graph").at("outputs")[0].at("name") == "s");
  CHECK(json.at("graph").at("inputs")[0].at("shape") == nlohmann::json::array({2, 3, 16, 16}));
  // fusion.optimize: the switch file kept conv1 and relu1 apart.
  std::vector<std::string> names;
  for (const auto& op : json.at("ops")) names.push_back(op.at("name"));
  CHECK(std::find(names.begin(), names.end(), "relu1") != names.end());
  CHECK(std::find(names.begin(), names.end(), "fc") == names.end());
}

TEST_CASE("--input_fp16_nodes: the input is fed as fp16, recorded in the .om; a name that is no float32 input is refused") {
  ScratchDir cwd;
  const auto run = run_atc(tiny_line({"--input_fp16_nodes=input", "--output_type=FP32", "--input_shape=input:1,3,16,16"}), cwd);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto json = om_json(cwd / "tiny.om", cwd);
  CHECK(json.at("header").at("compile_options").at("input_fp16_nodes") == nlohmann::json::array({"input"}));
  const std::string unknown = expect_failure(tiny_line({"--input_fp16_nodes=nope", "--input_shape=input:1,3,16,16"}), "EE5007", 15);
  CHECK_MESSAGE(contains(unknown, "input_fp16_nodes entry 'nope' is not an input"), unknown);
  CHECK_MESSAGE(contains(unknown, "(inputs: input)"), unknown);
}

TEST_CASE("--disable_reuse_memory reaches the memory plan") {
  ScratchDir cwd;
  REQUIRE(run_atc(tiny_line({}), cwd).exit_code == 0);
  const auto reuse = om_json(cwd / "tiny.om", cwd).at("profiles")[0].at("memory");
  REQUIRE(run_atc({"--model=" + model("tiny.onnx").string(), "--framework=5", "--output=tiny_no_reuse",
                   "--soc_version=Ascend310P3", "--disable_reuse_memory=1"},
                  cwd)
              .exit_code == 0);
  const auto no_reuse = om_json(cwd / "tiny_no_reuse.om", cwd).at("profiles")[0].at("memory");
  CHECK(reuse.at("reuse") == true);
  CHECK(no_reuse.at("reuse") == false);
  CHECK(no_reuse.at("activation_bytes") == no_reuse.at("activation_bytes_no_reuse"));
  CHECK(reuse.at("activation_bytes") < reuse.at("activation_bytes_no_reuse"));
}

TEST_CASE("--mode=1 --json_layout=atc writes ATC's own layout, as msit compare reads it") {
  ScratchDir cwd;
  const auto run = run_atc(tiny_line({"--input_shape=input:2,3,16,16"}), cwd);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto json_path = cwd / "tiny_atc.json";
  const auto convert =
      run_atc({"--mode=1", "--om=" + (cwd / "tiny.om").string(), "--json=" + json_path.string(), "--json_layout=atc"}, cwd);
  REQUIRE_MESSAGE(convert.exit_code == 0, convert.err);
  const auto json = nlohmann::json::parse(host::testing::read_text(json_path));
  CHECK(json.at("name") == "tiny");
  REQUIRE(json.at("graph").size() == 1);
  const auto& ops = json.at("graph")[0].at("op");
  // msit's OM parser: every op's attr list, _datadump_original_op_names as value.list.s.
  std::map<std::string, std::vector<std::string>> originals;
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& op : ops) {
    REQUIRE(op.contains("name"));
    REQUIRE(op.contains("type"));
    by_name[op.at("name")] = op;
    for (const auto& attr : op.at("attr"))
      if (attr.at("key") == "_datadump_original_op_names")
        originals[op.at("name")] = attr.at("value").at("list").value("s", std::vector<std::string>{});
  }
  CHECK(originals.size() == ops.size());
  CHECK(by_name.at("input").at("type") == "Data");
  CHECK(by_name.at("w1").at("type") == "Const");
  CHECK(by_name.at("NetOutput").at("type") == "NetOutput");
  // The op standing for conv1 reads the Data op and the weight, and says which original output it holds.
  const auto conv1 = std::find_if(originals.begin(), originals.end(), [](const auto& entry) {
    return std::find(entry.second.begin(), entry.second.end(), "conv1") != entry.second.end();
  });
  REQUIRE(conv1 != originals.end());
  const auto& op = by_name.at(conv1->first);
  // Its data input comes from the Cast force_fp16 inserted after the Data op, its weight from a Const.
  const std::string data_input = op.at("input")[0];
  REQUIRE(data_input.size() > 2);
  CHECK(data_input.substr(data_input.size() - 2) == ":0");
  const auto& producer = by_name.at(data_input.substr(0, data_input.size() - 2));
  CHECK(producer.at("type") == "Cast");
  CHECK(producer.at("input")[0] == "input:0");
  CHECK(op.at("input")[1] == "w1:0");
  const auto& input_desc = op.at("input_desc")[0];
  CHECK(input_desc.contains("dtype"));
  CHECK(input_desc.at("shape").contains("dim"));
  const auto& output_desc = op.at("output_desc")[0];
  CHECK(output_desc.at("dtype") == "DT_FLOAT16");  // force_fp16
  std::map<std::string, nlohmann::json> desc_attrs;
  for (const auto& attr : output_desc.at("attr")) desc_attrs[attr.at("key")] = attr.at("value");
  CHECK(desc_attrs.at("_datadump_origin_name").at("s") == conv1->second.back());
  CHECK(desc_attrs.at("_datadump_origin_output_index").at("i") == 0);
  CHECK(desc_attrs.at("origin_shape").at("list").at("i") == nlohmann::json::array({2, 8, 16, 16}));
}

}  // namespace
}  // namespace asc::atc::testing
