// parse_compile_options: the keys are CompileOptions' field names, values as ATC spells them.
#include <doctest/doctest.h>

#include "compiler/compiled_model.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;
using asc::npusim::parse_compile_options;

TEST_CASE("compile options: defaults, lists, booleans and per-output types") {
  const npusim::CompileOptions defaults = parse_compile_options({});
  CHECK(defaults.precision_mode == "force_fp16");
  CHECK(defaults.buffer_optimize == "l2_optimize");
  CHECK(defaults.enable_l2dynamic);
  CHECK_FALSE(defaults.disable_reuse_memory);

  const npusim::CompileOptions options = parse_compile_options({{"soc_version", "Ascend310P3"},
                                                                {"precision_mode", "mixed_float16"},
                                                                {"keep_dtype_nodes", "conv1, OpType::Softmax\nfc"},
                                                                {"op_select_implmode", "high_precision"},
                                                                {"optypelist_for_implmode", "Sigmoid,Softmax"},
                                                                {"output_type", "prob:0:FP16;feat:1:FP32"},
                                                                {"disable_reuse_memory", "1"},
                                                                {"enable_small_channel", "true"},
                                                                {"enable_l2dynamic", "0"}});
  CHECK(options.soc_version == "Ascend310P3");
  CHECK(options.precision_mode == "mixed_float16");
  CHECK(options.keep_dtype_nodes == std::vector<std::string>{"conv1", "OpType::Softmax", "fc"});
  CHECK(options.optypelist_for_implmode == std::vector<std::string>{"Sigmoid", "Softmax"});
  CHECK(options.output_type.empty());
  CHECK(options.output_type_per_output == std::map<std::string, std::string>{{"feat:1", "FP32"}, {"prob:0", "FP16"}});
  CHECK(options.disable_reuse_memory);
  CHECK(options.enable_small_channel);
  CHECK_FALSE(options.enable_l2dynamic);
  CHECK(parse_compile_options({{"output_type", "FP16"}}).output_type == "FP16");
}

TEST_CASE("compile options: unknown keys and bad values are coded errors naming them") {
  const Error unknown = error_from([] { parse_compile_options({{"precision", "force_fp16"}}); });
  CHECK(unknown.code() == ErrorCode::ConfigUnknownKey);
  CHECK(unknown.message().find("'precision'") != std::string::npos);
  CHECK(unknown.message().find("precision_mode") != std::string::npos);  // lists the known keys

  const std::vector<std::pair<std::string, std::string>> bad = {
      {"precision_mode", "fp16"},          {"op_select_implmode", "fast"},
      {"output_type", "FP64"},             {"output_type", "prob:x:FP16"},
      {"output_type", "prob:0:FP64"},      {"output_type_per_output", "prob:FP64"},
      {"input_format", "NC1HWC0"},         {"buffer_optimize", "l3_optimize"},
      {"disable_reuse_memory", "yes"},     {"enable_small_channel", "2"}};
  for (const auto& entry : bad) {  // not a structured binding: clang 14 cannot capture one
    const std::string& key = entry.first;
    const std::string& value = entry.second;
    CAPTURE(key);
    CAPTURE(value);
    const Error error = error_from([&] { parse_compile_options({{key, value}}); });
    CHECK(error.code() == ErrorCode::ConfigBadValue);
    CHECK(error.message().find(key) != std::string::npos);
  }
  // ATC checks optypelist_for_implmode together with op_select_implmode.
  CHECK(error_from([] { parse_compile_options({{"optypelist_for_implmode", "Sigmoid"}}); }).code() ==
        ErrorCode::ConfigBadValue);
}
