// The fusion.optimize stage: pass selection (passes, disabled_passes, switch files in ATC's two
// spellings and the seed's, scope fusion), fusion_result.json, kernel counts and graph dumps.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/fusion_rule.hpp>
#include <asc/sdk/pipeline.hpp>

#include "fusion_test_support.hpp"
#include "temp_dir.hpp"

namespace asc::fusion_test {
namespace {

using Json = nlohmann::json;

// x -> Identity -> Conv -> BatchNormalization -> Relu -> Flatten -> MatMul -> Add(bias):
// 5 kernels (Identity and Flatten launch none); fused: FusedConv(Relu), Flatten, FusedMatMul.
Graph stage_graph() {
  GraphBuilder b(13);
  const auto x = b.input("x", {1, 3, 8, 8});
  const auto conv = b.op("Conv", {b.op("Identity", {x}), b.constant("W", random_tensor({4, 3, 3, 3}, 1))},
                         attrs({{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}}), "conv");
  const auto bn = b.op("BatchNormalization",
                       {conv, b.constant("scale", random_tensor({4}, 2)), b.constant("shift", random_tensor({4}, 3)),
                        b.constant("mean", random_tensor({4}, 4)), b.constant("var", random_tensor({4}, 5, 0.5f, 2))},
                       {}, "bn");
  const auto flat = b.op("Flatten", {b.op("Relu", {bn}, {}, "relu")}, attrs({{"axis", std::int64_t{1}}}));
  const auto product = b.op("MatMul", {flat, b.constant("W2", random_tensor({256, 10}, 6))}, {}, "mm");
  b.output(b.op("Add", {product, b.constant("bias", random_tensor({10}, 7))}, {}, "add"));
  return b.finish();
}

struct StageRun {
  Graph graph;
  Json result;
};

StageRun run_stage(std::map<std::string, std::string> params, const test::TempDir& dir, Registry& plugins = registry()) {
  const StageDefinition* stage = plugins.stage("fusion.optimize");
  REQUIRE(stage != nullptr);
  PipelineContext context{plugins};
  context.graph = stage_graph();
  StageParams stage_params;
  stage_params.set_stage_name("fusion.optimize");
  params.emplace("result_file", (dir / "fusion_result.json").string());
  for (const auto& [name, value] : params) stage_params.set(name, value);
  stage->run(context, stage_params);
  std::ifstream file(dir / "fusion_result.json");
  return {std::move(*context.graph), Json::parse(file)};
}

std::string write(const test::TempDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

const Json& pass_entry(const Json& result, const std::string& name) {
  for (const Json& entry : result["asc"]["passes"])
    if (entry["name"] == name) return entry;
  FAIL("no entry for " << name);
  static const Json none;
  return none;
}

Error stage_error(std::map<std::string, std::string> params, const test::TempDir& dir) {
  try {
    run_stage(std::move(params), dir);
  } catch (const Error& e) {
    return e;
  }
  FAIL("the stage did not fail");
  return Error(ErrorCode::Internal, "");
}

TEST_CASE("fusion.optimize writes ATC's fusion_result.json layout with kernel counts") {
  const test::TempDir dir;
  const StageRun run = run_stage({}, dir);
  const Json& atc = run.result["session_and_graph_id_0_0"];
  CHECK(atc["graph_fusion"]["ConvBatchNormFusion"] == Json({{"effect_times", "1"}, {"match_times", "1"}}));
  CHECK(atc["graph_fusion"]["MatMulBiasAddFusion"]["effect_times"] == "1");
  CHECK(atc["ub_fusion"]["ConvActivationFusion"]["effect_times"] == "1");
  CHECK_FALSE(atc["graph_fusion"].contains("GeluFusion"));  // ran without a match: not listed, as in ATC
  CHECK(run.result["asc"]["kernels"] == Json({{"before", 5}, {"after", 2}}));
  CHECK(run.result["asc"]["nodes"] == Json({{"before", 7}, {"after", 3}}));
  const Json& attention = pass_entry(run.result, "AttentionFusion");
  CHECK(attention["ran"] == false);
  CHECK(attention["disabled_by"] == "enable_scope_fusion is false");
  CHECK(pass_entry(run.result, "IdentityElimination")["effect_times"] == 1);
  CHECK(pass_entry(run.result, "ConstantFolding")["time_ms"].is_number());
  CHECK(run.graph.node_count() == 3);
}

TEST_CASE("disabled_passes turns single passes off") {
  const test::TempDir dir;
  const StageRun run = run_stage({{"disabled_passes", "ConvBatchNormFusion"}}, dir);
  const Json& entry = pass_entry(run.result, "ConvBatchNormFusion");
  CHECK(entry["ran"] == false);
  CHECK(entry["disabled_by"] == "disabled_passes");
  CHECK(count_ops(run.graph, "BatchNormalization") == 1);
  CHECK(stage_error({{"disabled_passes", "NoSuchPass"}}, dir).code() == ErrorCode::ConfigBadValue);
}

TEST_CASE("a text switch file turns passes off by name") {
  const test::TempDir dir;
  const std::string file = write(dir, "fusion.cfg", "# comment\nConvBatchNormFusion:off\n\n MatMulBiasAddFusion : OFF \nGeluFusion:on\n");
  const StageRun run = run_stage({{"fusion_switch_file", file}}, dir);
  CHECK(pass_entry(run.result, "ConvBatchNormFusion")["disabled_by"] == "fusion_switch_file " + file + ":2");
  CHECK(pass_entry(run.result, "MatMulBiasAddFusion")["ran"] == false);
  CHECK(pass_entry(run.result, "GeluFusion")["ran"] == true);
  CHECK(count_ops(run.graph, "BatchNormalization") == 1);
}

TEST_CASE("an ATC JSON switch file with ALL and exceptions") {
  const test::TempDir dir;
  const std::string file = write(dir, "fusion.json",
                                 R"({"Switch":{"GraphFusion":{"ALL":"off","MatMulBiasAddFusion":"on"},
                                               "UBFusion":{"ConvActivationFusion":"off"}}})");
  const StageRun run = run_stage({{"fusion_switch_file", file}}, dir);
  CHECK(pass_entry(run.result, "ConvBatchNormFusion")["ran"] == false);
  CHECK(pass_entry(run.result, "GeluFusion")["ran"] == false);
  CHECK(pass_entry(run.result, "MatMulBiasAddFusion")["ran"] == true);
  CHECK(pass_entry(run.result, "ConvActivationFusion")["ran"] == false);
  CHECK(pass_entry(run.result, "ElementwiseChainFusion")["ran"] == true);
  CHECK(pass_entry(run.result, "ConstantFolding")["ran"] == true);  // ALL covers its group only
}

TEST_CASE("the seed's {switch:{...}} spelling maps its names to passes") {
  const test::TempDir dir;
  const std::string seed = write(dir, "seed.cfg", "{switch:{Fusion:true,ConvBatchNorm:false,ConvReLU:true,MatMulBiasAdd:true,CustomFusion:true}}");
  const StageRun run = run_stage({{"fusion_switch_file", seed}}, dir);
  CHECK(pass_entry(run.result, "ConvBatchNormFusion")["ran"] == false);
  CHECK(pass_entry(run.result, "ConvActivationFusion")["ran"] == true);

  const std::string off = write(dir, "off.cfg", "{switch:{Fusion:false, ConvReLU:true}}");
  const StageRun none = run_stage({{"fusion_switch_file", off}}, dir);
  CHECK(pass_entry(none.result, "MatMulBiasAddFusion")["ran"] == false);
  CHECK(pass_entry(none.result, "ElementwiseChainFusion")["ran"] == false);
  CHECK(pass_entry(none.result, "ConvActivationFusion")["ran"] == true);  // named entries override Fusion
  CHECK(pass_entry(none.result, "IdentityElimination")["ran"] == true);
}

TEST_CASE("another plugin's fusion rule runs before the built-in passes, though registered after them") {
  // The built-in operator libraries load first (asc/host/plugin_host.hpp), so a custom rule for
  // Conv -> BatchNormalization -> Relu comes later in the registry; it must still see the chain
  // before ConvBatchNormFusion folds it.
  host::PluginHost host({ASC_BUILD_PLUGIN_DIR});
  for (const char* plugin : {"ops_builtin", "fusion"})
    host.load_file(std::filesystem::path(ASC_BUILD_PLUGIN_DIR) / (std::string(plugin) + ".so"));
  host.registry().add_pass(make_chain_fusion({.name = "MyConvBnRelu",
                                              .description = "Conv -> BatchNormalization -> Relu becomes com.example.ConvBnRelu",
                                              .pattern = {"Conv", "BatchNormalization", "Relu"},
                                              .rewrite = [](const ChainMatch& match) -> std::optional<ChainReplacement> {
                                                return ChainReplacement{.domain = "com.example",
                                                                        .op_type = "ConvBnRelu",
                                                                        .inputs = match.nodes[0]->inputs};
                                              }}),
                           "my_rules");
  const test::TempDir dir;
  const StageRun run = run_stage({}, dir, host.registry());
  REQUIRE(run.result["asc"]["passes"].size() > 1);
  CHECK(run.result["asc"]["passes"][0]["name"] == "MyConvBnRelu");
  CHECK(pass_entry(run.result, "MyConvBnRelu")["effect_times"] == 1);
  CHECK(pass_entry(run.result, "ConvBatchNormFusion")["effect_times"] == 0);
  int custom = 0;
  for (const Node* node : run.graph.nodes()) custom += node->op_type == "ConvBnRelu" ? 1 : 0;
  CHECK(custom == 1);
}

TEST_CASE("switch file errors name the file, the pass and the place") {
  const test::TempDir dir;
  auto error_for = [&](const std::string& name, const std::string& text) {
    const std::string file = write(dir, name, text);
    return std::pair{stage_error({{"fusion_switch_file", file}}, dir), file};
  };
  auto [unknown, unknown_file] = error_for("unknown.cfg", "ConvBatchNormFusion:off\nConvBnFusion:off\n");
  CHECK(unknown.code() == ErrorCode::ConfigBadValue);
  CHECK(unknown.message().find(unknown_file + ":2") != std::string::npos);
  CHECK(unknown.message().find("'ConvBnFusion'") != std::string::npos);

  auto [json_unknown, json_file] = error_for("unknown.json", R"({"Switch":{"UBFusion":{"NoSuchFusion":"off"}}})");
  CHECK(json_unknown.code() == ErrorCode::ConfigBadValue);
  CHECK(json_unknown.message().find("'NoSuchFusion'") != std::string::npos);

  auto [wrong_group, group_file] = error_for("group.json", R"({"Switch":{"GraphFusion":{"ConvActivationFusion":"off"}}})");
  CHECK(wrong_group.code() == ErrorCode::ConfigBadValue);
  CHECK(wrong_group.message().find("UBFusion pass") != std::string::npos);

  auto [bad_line, line_file] = error_for("bad.cfg", "ConvBatchNormFusion=off\n");
  CHECK(bad_line.code() == ErrorCode::ConfigSyntax);
  CHECK(bad_line.message().find(line_file + ":1:") != std::string::npos);

  auto [bad_json, bad_json_file] = error_for("bad.json", "{\"Switch\":{\n  \"GraphFusion\": {\"ALL\" \"off\"}}}");
  CHECK(bad_json.code() == ErrorCode::ConfigSyntax);
  CHECK(bad_json.message().find(bad_json_file + ":2:") != std::string::npos);

  auto [bad_value, value_file] = error_for("value.json", R"({"Switch":{"GraphFusion":{"ALL":"maybe"}}})");
  CHECK(bad_value.code() == ErrorCode::ConfigSyntax);
  CHECK(bad_value.message().find(value_file + ":1:") != std::string::npos);
}

TEST_CASE("scope fusions run only with enable_scope_fusion") {
  const test::TempDir dir;
  CHECK(stage_error({{"passes", "AttentionFusion"}}, dir).code() == ErrorCode::ConfigBadValue);
  const StageRun run = run_stage({{"passes", "AttentionFusion,ConvBatchNormFusion"}, {"enable_scope_fusion", "true"}}, dir);
  CHECK(run.result["asc"]["passes"].size() == 2);
  CHECK(run.result["asc"]["passes"][0]["name"] == "AttentionFusion");
  CHECK(run.result["asc"]["passes"][0]["ran"] == true);
  CHECK(count_ops(run.graph, "BatchNormalization") == 0);
  CHECK(count_ops(run.graph, "Identity") == 1);  // not among the listed passes
}

TEST_CASE("dump_after writes the graph as text after the named passes") {
  const test::TempDir dir;
  const auto dumps = dir / "dumps";
  run_stage({{"dump_after", "ConvBatchNormFusion,ConvActivationFusion"}, {"dump_dir", dumps.string()}}, dir);
  std::ifstream after_bn(dumps / "07_ConvBatchNormFusion.txt");
  REQUIRE(after_bn.good());
  const std::string text((std::istreambuf_iterator<char>(after_bn)), std::istreambuf_iterator<char>());
  CHECK(text.find("conv = Conv(") != std::string::npos);
  CHECK(text.find("provenance=[conv,bn]") != std::string::npos);
  CHECK(std::filesystem::exists(dumps / "14_ConvActivationFusion.txt"));
  CHECK(stage_error({{"dump_after", "ConvBatchNormFusion"}}, dir).code() == ErrorCode::ConfigMissingKey);
  CHECK(stage_error({{"dump_after", "Nope"}, {"dump_dir", dumps.string()}}, dir).code() == ErrorCode::ConfigBadValue);
}

}  // namespace
}  // namespace asc::fusion_test
