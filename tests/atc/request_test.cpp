// atc's flags -> pipeline variables: every flag reaches its variable, and every bad command line
// is refused with its code before anything runs.
#include <doctest/doctest.h>

#include <map>

#include "atc_flags.hpp"
#include "atc_request.hpp"
#include "test_support.hpp"

namespace asc::atc {
namespace {

using host::testing::error_message;
using host::testing::ScratchDir;
using host::testing::write_text;

const std::vector<std::string> kRequired{"--model=m.onnx", "--framework=5", "--output=out/m",
                                         "--soc_version=Ascend310P3"};

AtcRequest request(std::vector<std::string> arguments, bool with_required = true) {
  if (with_required) arguments.insert(arguments.begin(), kRequired.begin(), kRequired.end());
  return build_request(host::parse_ascend_flags("atc", atc_flag_specs(), arguments), "atc ...");
}

std::map<std::string, std::string> variables(const std::vector<std::string>& arguments) {
  std::map<std::string, std::string> values;
  for (const auto& variable : request(arguments).variables) {  // not a structured binding: clang 14 cannot capture one
    const auto& name = variable.name;
    CHECK_MESSAGE(values.count(name) == 0, name << " set twice");
    values[name] = variable.value;
  }
  return values;
}

bool request_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string refused(const std::vector<std::string>& arguments, ErrorCode code, bool with_required = true) {
  return error_message([&] { request(arguments, with_required); }, code);
}

TEST_CASE("the required flags map to model, output (+.om) and soc_version") {
  const auto values = variables({});
  CHECK(values.at("model") == "m.onnx");
  CHECK(values.at("output") == "out/m.om");
  CHECK(values.at("soc_version") == "Ascend310P3");
  CHECK(values.at("command_line") == "atc ...");
  CHECK(values.size() == 4);  // the pipeline's defaults stand for everything else
  CHECK(request({}).saved_path == "./out/m.om");
  CHECK(request({}).mode == AtcMode::Compile);
}

TEST_CASE("the success line shows the path as given, with ./ before a bare relative one") {
  const auto saved = [](const std::string& output) {
    return build_request(host::parse_ascend_flags("atc", atc_flag_specs(),
                                                  {"--model=m.onnx", "--framework=5", "--output=" + output,
                                                   "--soc_version=Ascend910"}),
                         "")
        .saved_path;
  };
  CHECK(saved("resnet50") == "./resnet50.om");
  CHECK(saved("./resnet50") == "./resnet50.om");
  CHECK(saved("../x/resnet50") == "../x/resnet50.om");
  CHECK(saved("/tmp/resnet50") == "/tmp/resnet50.om");
}

TEST_CASE("every pass-through flag reaches the variable of its name") {
  const std::vector<std::pair<std::string, std::string>> flags{
      {"out_nodes", "conv1:0;fc:0"},
      {"fusion_switch_file", "fusion.cfg"},
      {"precision_mode", "allow_fp32_to_fp16"},
      {"op_select_implmode", "high_precision"},
      {"optypelist_for_implmode", "Sigmoid,Softmax"},
      {"output_type", "FP16"},
      {"input_format", "NCHW"},
      {"buffer_optimize", "off_optimize"},
      {"debug_dir", "dump"},
      {"input_shape", "input:1,3,224,224"},
      {"dynamic_batch_size", "1,2,4"},
  };
  std::vector<std::string> arguments;
  for (const auto& [name, value] : flags) arguments.push_back("--" + name + "=" + value);
  const auto values = variables(arguments);
  for (const auto& flag : flags) {  // not a structured binding: clang 14 cannot capture one
    const auto& [name, value] = flag;
    const auto& shown_name = flag.first;
    INFO(shown_name);
    REQUIRE(values.count(name) == 1);
    CHECK(values.at(name) == value);
  }
}

TEST_CASE("boolean flags reach their variables as true/false in every spelling") {
  const auto values = variables({"--enable_scope_fusion=True", "--enable_small_channel", "on",
                                 "--enable-l2dynamic=0", "-disable_reuse_memory", "1"});
  CHECK(values.at("enable_scope_fusion") == "true");
  CHECK(values.at("enable_small_channel") == "true");
  CHECK(values.at("enable_l2dynamic") == "false");
  CHECK(values.at("disable_reuse_memory") == "true");
}

TEST_CASE("precision_mode takes ATC's modes and the seed's mixed_float16") {
  for (const std::string mode : {"force_fp16", "allow_fp32_to_fp16", "must_keep_origin_dtype", "allow_mix_precision",
                                 "mixed_float16", "force_fp32", "cube_fp16in_fp32out"})
    CHECK(variables({"--precision_mode=" + mode}).at("precision_mode") == mode);
  CHECK(request_contains(refused({"--precision_mode=fp16"}, ErrorCode::UsageError),
                         "Value 'fp16' for --precision_mode"));
}

TEST_CASE("output_type: a global type is checked here, per-output entries go to the compiler") {
  CHECK(variables({"--output_type=node:0:FP16;b:1:FP32"}).at("output_type") == "node:0:FP16;b:1:FP32");
  CHECK(request_contains(refused({"--output_type=FP64"}, ErrorCode::UsageError),
                         "Value 'FP64' for --output_type"));
}

TEST_CASE("--keep_dtype reads node names, one a line") {
  ScratchDir scratch;
  write_text(scratch / "keep.cfg", "conv1\n\n  fc  \r\nOpType::Relu\n");
  CHECK(variables({"--keep_dtype=" + (scratch / "keep.cfg").string()}).at("keep_dtype_nodes") ==
        "conv1,fc,OpType::Relu");
  write_text(scratch / "empty.cfg", "\n \n");
  CHECK(request_contains(refused({"--keep_dtype=" + (scratch / "empty.cfg").string()}, ErrorCode::UsageError),
                         "lists no node"));
  CHECK(request_contains(
      refused({"--keep_dtype=" + (scratch / "none.cfg").string()}, ErrorCode::FileNotFound), "none.cfg"));
}

TEST_CASE("--op_lib_path adds plugin directories, recorded as absolute paths") {
  ScratchDir scratch;
  std::filesystem::create_directories(scratch / "ops_a");
  std::filesystem::create_directories(scratch / "ops_b");
  const auto a = std::filesystem::weakly_canonical(scratch / "ops_a");
  const auto b = std::filesystem::weakly_canonical(scratch / "ops_b");
  const auto result = request({"--op_lib_path=" + (scratch / "ops_a").string() + "," + (scratch / "ops_b").string()});
  CHECK(result.op_lib_dirs == std::vector<std::filesystem::path>{a, b});
  std::map<std::string, std::string> values;
  for (const auto& [name, value] : result.variables) values[name] = value;
  CHECK(values.at("op_lib_paths") == a.string() + "," + b.string());
  CHECK(request_contains(
      refused({"--op_lib_path=" + (scratch / "missing").string()}, ErrorCode::FileNotFound), "missing"));
  // A plugin file instead of its directory says so, and names the directory to give.
  write_text(scratch / "ops_a" / "my_ops.so", "");
  const std::string file_refused = refused({"--op_lib_path=" + (scratch / "ops_a" / "my_ops.so").string()}, ErrorCode::UsageError);
  CHECK(request_contains(file_refused, "is a file"));
  CHECK(request_contains(file_refused, (scratch / "ops_a").string()));
  CHECK_FALSE(request_contains(file_refused, "does not exist"));
}

// Found by fuzz_atc_flags: a path longer than the system looks up made std::filesystem throw
// out of the request (atc ended in std::terminate).
TEST_CASE("--op_lib_path and --keep_dtype paths too long to look up are refused as bad values") {
  const std::string long_name(5000, 'x');
  CHECK(request_contains(refused({"--op_lib_path=" + long_name}, ErrorCode::UsageError), "cannot be looked up"));
  CHECK(request_contains(refused({"--keep_dtype=" + long_name}, ErrorCode::UsageError), "cannot be looked up"));
}

TEST_CASE("--mode=1 converts --om to --json") {
  const auto result = request({"--mode=1", "--om=m.om", "--json=m.json"}, false);
  CHECK(result.mode == AtcMode::OmToJson);
  std::map<std::string, std::string> values;
  for (const auto& [name, value] : result.variables) values[name] = value;
  CHECK(values == std::map<std::string, std::string>{{"om", "m.om"}, {"json", "m.json"}, {"layout", "asc"}});
  std::map<std::string, std::string> atc_layout;
  for (const auto& [name, value] : request({"--mode=1", "--om=m.om", "--json=m.json", "--json_layout=atc"}, false).variables)
    atc_layout[name] = value;
  CHECK(atc_layout.at("layout") == "atc");
}

TEST_CASE("bad command lines are refused with their code") {
  SUBCASE("missing required flags") {
    CHECK(request_contains(
        refused({"--framework=5", "--output=m", "--soc_version=Ascend910"}, ErrorCode::UsageError, false),
        "--model is empty"));
    CHECK(request_contains(
        refused({"--model=m.onnx", "--output=m", "--soc_version=Ascend910"}, ErrorCode::UsageError, false),
        "--framework is empty"));
    CHECK(request_contains(
        refused({"--model=m.onnx", "--framework=5", "--soc_version=Ascend910"}, ErrorCode::UsageError, false),
        "--output is empty"));
    CHECK(request_contains(
        refused({"--model=m.onnx", "--framework=5", "--output=m"}, ErrorCode::UsageError, false),
        "--soc_version is empty"));
  }
  SUBCASE("frameworks") {
    for (const auto& [number, name] : std::vector<std::pair<std::string, std::string>>{
             {"0", "Caffe"}, {"1", "MindSpore"}, {"3", "TensorFlow"}}) {
      const auto message = refused({"--model=m", "--framework=" + number, "--output=m", "--soc_version=Ascend910"},
                                   ErrorCode::FrameworkUnsupported, false);
      CHECK(request_contains(message, name + ") is not supported yet"));
    }
    const auto message =
        refused({"--model=m", "--framework=7", "--output=m", "--soc_version=Ascend910"}, ErrorCode::UsageError, false);
    CHECK(request_contains(message, "Value '7' for --framework"));
    CHECK(request_contains(message, "0 (Caffe), 1 (MindSpore), 3 (TensorFlow) or 5 (ONNX)"));
  }
  SUBCASE("an output that names no file") {
    CHECK(request_contains(refused({"--model=m", "--framework=5", "--output=out/", "--soc_version=Ascend910"},
                                   ErrorCode::UsageError, false),
                           "does not include a file name"));
  }
  SUBCASE("an input format ONNX models do not have") {
    CHECK(request_contains(refused({"--input_format=NHWC"}, ErrorCode::UsageError),
                           "ONNX models take NCHW, ND or NCDHW"));
  }
  SUBCASE("optypelist without implmode") {
    CHECK(request_contains(refused({"--optypelist_for_implmode=Sigmoid"}, ErrorCode::UsageError),
                           "needs --op_select_implmode"));
  }
  SUBCASE("--mode=1 without --om or --json, or with --model") {
    CHECK(request_contains(refused({"--mode=1", "--json=x.json"}, ErrorCode::UsageError, false),
                           "--om is empty"));
    CHECK(request_contains(refused({"--mode=1", "--om=x.om"}, ErrorCode::UsageError, false),
                           "--json is empty"));
    CHECK(request_contains(
        refused({"--mode=1", "--model=m.onnx", "--json=x.json"}, ErrorCode::UsageError, false),
        "original model"));
  }
  SUBCASE("modes other than 0 and 1") {
    CHECK(request_contains(refused({"--mode=3"}, ErrorCode::UsageError, false), "Value '3' for --mode"));
  }
  SUBCASE("bad shape strings are EE1009") {
    CHECK(
        request_contains(refused({"--input_shape=input:1,a,224,224"}, ErrorCode::InputShapeInvalid), "'a'"));
    CHECK(
        request_contains(refused({"--input_shape=1,3,224,224"}, ErrorCode::InputShapeInvalid), "name:d0,d1"));
    CHECK(request_contains(refused({"--dynamic_batch_size=1,0"}, ErrorCode::InputShapeInvalid), "'0'"));
    CHECK(request_contains(refused({"--dynamic_image_size=320,320,3"}, ErrorCode::InputShapeInvalid),
                           "height,width"));
    CHECK(request_contains(
        refused({"--input_shape=x:-1,3", "--dynamic_dims=1,2"}, ErrorCode::InputShapeInvalid),
        "1 dynamic (-1) dims"));
    CHECK(request_contains(refused({"--dynamic_shape=[1,3]"}, ErrorCode::InputShapeInvalid),
                           "must start with an input name"));
    CHECK(request_contains(refused({"--dynamic_shape=x:(1,3)"}, ErrorCode::InputShapeInvalid), "'x:(1,3)'"));
  }
}

TEST_CASE("dynamic flags are mutually exclusive, naming what was given") {
  const std::vector<std::vector<std::string>> pairs{
      {"--dynamic_batch_size=1,2", "--dynamic_image_size=320,320;640,640"},
      {"--dynamic_batch_size=1,2", "--dynamic_dims=1;2"},
      {"--dynamic_image_size=320,320;640,640", "--dynamic_dims=1;2"},
      {"--dynamic_batch_size=1,2", "--dynamic_shape=x:[1,3];[2,3]"}};
  for (const auto& pair : pairs) {
    std::vector<std::string> arguments = pair;
    arguments.push_back("--input_shape=x:-1,3");
    const auto message = refused(arguments, ErrorCode::UsageError);
    CHECK(request_contains(message, "mutually exclusive"));
    CHECK(request_contains(message, pair[0].substr(0, pair[0].find('=')) + "='"));
  }
}

TEST_CASE("ATC's --dynamic_dims gives one value per -1 dim and passes through") {
  const auto values = variables({"--input_shape=ids:-1,-1;mask:-1,128", "--dynamic_dims=1,16,1;2,32,2"});
  CHECK(values.at("input_shape") == "ids:-1,-1;mask:-1,128");
  CHECK(values.at("dynamic_dims") == "1,16,1;2,32,2");
}

TEST_CASE("whole-shape profiles make the dims that vary dynamic (the seed's yolov5 line)") {
  const std::vector<std::string> seed{"--input_shape=images:1,3,640,640",
                                      "--dynamic_dims=1,3,320,320;1,3,640,640;1,3,1280,1280",
                                      "--dynamic_shape=images:[1,3,320,320];[1,3,640,640];[1,3,1280,1280]"};
  for (const auto& arguments : {seed, std::vector<std::string>{seed[0], seed[1]}, std::vector<std::string>{seed[0], seed[2]},
                                std::vector<std::string>{seed[2]}}) {
    const auto values = variables(arguments);
    CHECK(values.at("input_shape") == "images:1,3,-1,-1");
    CHECK(values.at("dynamic_dims") == "320,320;640,640;1280,1280");
  }
}

TEST_CASE("whole-shape profiles over two inputs follow --input_shape's order") {
  const auto values = variables({"--input_shape=b:1,8;a:1,3,32,32",
                                 "--dynamic_shape=a:[1,3,32,32];[1,3,64,64];b:[1,8];[1,16]"});
  CHECK(values.at("input_shape") == "b:1,-1;a:1,3,-1,-1");
  CHECK(values.at("dynamic_dims") == "8,32,32;16,64,64");
}

TEST_CASE("whole-shape profiles that disagree or change nothing are refused") {
  CHECK(
      request_contains(refused({"--input_shape=images:1,3,640,640", "--dynamic_dims=1,3,320,320;1,3,640,640",
                                "--dynamic_shape=images:[1,3,320,320];[1,3,1280,1280]"},
                               ErrorCode::UsageError),
                       "describe different profiles"));
  CHECK(request_contains(refused({"--input_shape=images:1,3,640,640", "--dynamic_dims=1,3,640,640"},
                                 ErrorCode::InputShapeInvalid),
                         "no dimension is dynamic"));
  CHECK(request_contains(
      refused({"--input_shape=images:1,3,640,640", "--dynamic_dims=1,3,640"}, ErrorCode::InputShapeInvalid),
      "has 3 dims"));
  CHECK(request_contains(
      refused({"--input_shape=a:1,3", "--dynamic_shape=b:[1,3];[2,3]"}, ErrorCode::InputShapeInvalid),
      "'b', which --input_shape does not list"));
  CHECK(request_contains(refused({"--dynamic_shape=a:[1,3];[2,3];b:[1]"}, ErrorCode::InputShapeInvalid),
                         "same number"));
  CHECK(request_contains(refused({"--dynamic_dims=1;2"}, ErrorCode::UsageError), "needs --input_shape"));
}

TEST_CASE("command_line_text quotes what a shell would split") {
  CHECK(command_line_text({"atc", "--model=a.onnx", "--framework=5"}) == "atc --model=a.onnx --framework=5");
  CHECK(command_line_text({"atc", "--input_shape=a:1,3;b:2", "--x=it's"}) ==
        "atc '--input_shape=a:1,3;b:2' '--x=it'\\''s'");
}

}  // namespace
}  // namespace asc::atc
