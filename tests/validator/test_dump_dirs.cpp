// Comparing two dump directories (manifest.json + .npy per node output, as reference.run's
// dump_dir writes them): matching through provenance, fused kernels, unmatched nodes, order,
// the first failing operator, and op_validate --golden_dir/--actual_dir.
#include <doctest/doctest.h>

#include <algorithm>
#include <asc/sdk/io.hpp>
#include <nlohmann/json.hpp>

#include "network_comparison.hpp"
#include "support.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;
using Json = nlohmann::ordered_json;

namespace {

struct DumpNode {
  std::string name, op_type;
  std::vector<std::string> provenance;
  Tensor output;
};

// Writes <dir>/<node>.0.npy for each node and the manifest, in the given (execution) order.
void write_dump(const std::filesystem::path& dir, const std::vector<DumpNode>& nodes) {
  std::filesystem::create_directories(dir);
  Json manifest_nodes = Json::object();
  for (const DumpNode& node : nodes) {
    const std::string file = node.name + ".0.npy";
    write_npy(dir / file, node.output);
    manifest_nodes[node.name] = {{"op_type", node.op_type},
                                 {"provenance", node.provenance},
                                 {"outputs",
                                  {{{"index", 0},
                                    {"value", node.name + "_out"},
                                    {"file", file},
                                    {"dtype", "float32"},
                                    {"shape", node.output.shape()}}}}};
  }
  write_text_atomically(dir / "manifest.json", Json{{"nodes", manifest_nodes}}.dump(2));
}

Tensor values(const std::vector<float>& v) {
  return floats({1, 1, 1, static_cast<std::int64_t>(v.size())}, v);
}

// Golden: conv1 -> relu1 -> conv2 -> relu2 -> pool. Actual: conv1+relu1 fused, an inserted
// Cast without provenance, conv2, relu2 scaled by 1.01 (and so pool, by 1.01 too), pool.
void write_network_dumps(const TempDir& dir, float relu2_factor) {
  std::vector<float> conv1, relu1, conv2, relu2;  // 16 values each
  for (int i = 0; i < 16; ++i) {
    conv1.push_back(static_cast<float>((i % 3) - 1) * static_cast<float>(i + 1));
    relu1.push_back(std::max(conv1.back(), 0.0f));
    conv2.push_back(static_cast<float>((i % 4) - 1) * 0.5f * static_cast<float>(i + 2));
    relu2.push_back(std::max(conv2.back(), 0.0f));
  }
  std::vector<float> scaled_relu2 = relu2;
  for (float& v : scaled_relu2) v *= relu2_factor;
  write_dump(dir / "golden", {{"conv1", "Conv", {"conv1"}, values(conv1)},
                              {"relu1", "Relu", {"relu1"}, values(relu1)},
                              {"conv2", "Conv", {"conv2"}, values(conv2)},
                              {"relu2", "Relu", {"relu2"}, values(relu2)},
                              {"pool", "GlobalAveragePool", {"pool"}, values({2})}});
  write_dump(dir / "actual", {{"conv1_relu1", "FusedConvRelu", {"conv1", "relu1"}, values(relu1)},
                              {"cast_0", "Cast", {}, values(relu1)},
                              {"conv2", "Conv", {"conv2"}, values(conv2)},
                              {"relu2", "Relu", {"relu2"}, values(scaled_relu2)},
                              {"pool", "GlobalAveragePool", {"pool"}, values({2 * relu2_factor})}});
}

}  // namespace

TEST_CASE("dump directories are matched through provenance, in golden execution order") {
  TempDir dir;
  write_network_dumps(dir, 1.01f);
  const auto result =
      validator::compare_dump_directories(dir / "golden", dir / "actual", ComparisonOptions{});
  REQUIRE(result.rows.size() == 6);
  // conv1 was fused away: listed, not dropped, and not compared.
  CHECK(result.rows[0].kind == validator::RowKind::GoldenOnly);
  CHECK(result.rows[0].golden_node == "conv1");
  CHECK(result.rows[0].note == "fused into 'conv1_relu1' (compared at its output)");
  // The fused kernel is compared at its last original node's output, relu1's.
  CHECK(result.rows[1].actual_node == "conv1_relu1");
  CHECK(result.rows[1].golden_node == "relu1");
  CHECK(result.rows[1].comparison->passed);
  // The inserted Cast has no golden counterpart; it stays where it ran.
  CHECK(result.rows[2].kind == validator::RowKind::ActualOnly);
  CHECK(result.rows[2].actual_node == "cast_0");
  CHECK(result.rows[3].actual_node == "conv2");
  CHECK(result.rows[4].actual_node == "relu2");
  CHECK(result.rows[5].actual_node == "pool");
  // relu2 is the first failure, a scale error.
  REQUIRE(result.first_failing_row);
  CHECK(*result.first_failing_row == 4);
  const auto& relu2 = *result.rows[4].comparison;
  CHECK(std::find(relu2.error_classes.begin(), relu2.error_classes.end(), "scale_offset") !=
        relu2.error_classes.end());
  CHECK(relu2.scale.scale == doctest::Approx(1.01).epsilon(1e-6));
  CHECK(result.compared == 4);
  CHECK(result.failed == 2);
  CHECK(result.actual_only == 1);
  CHECK(result.golden_only == 1);
}

TEST_CASE("op_validate --golden_dir/--actual_dir: exit 0 for equal dumps, 1 naming the first failure") {
  TempDir dir;
  write_network_dumps(dir, 1.0f);
  const std::string dirs =
      "--golden_dir='" + (dir / "golden").string() + "' --actual_dir='" + (dir / "actual").string() + "'";
  const auto pass = op_validate(dirs, dir / "pass.log");
  INFO(pass.output);
  CHECK(pass.exit_code == 0);
  CHECK(pass.output.find("Result: PASS") != std::string::npos);

  TempDir faulty;
  write_network_dumps(faulty, 1.01f);
  const auto fail =
      op_validate("--golden_dir '" + (faulty / "golden").string() + "' --actual_dir '" +
                      (faulty / "actual").string() + "' --rel_tolerance 1e-3 --html='" +
                      (faulty / "r.html").string() + "' --csv='" + (faulty / "r.csv").string() + "'",
                  faulty / "fail.log");
  INFO(fail.output);
  CHECK(fail.exit_code == 1);
  CHECK(fail.output.find("the first is 'relu2' (Relu) output 0 [absolute, relative, scale_offset]") !=
        std::string::npos);
  CHECK(read_text(faulty / "r.html").find("relu2:output:0") != std::string::npos);
  // msit's "*" ground truth and IsNpuOps for the inserted Cast.
  CHECK(read_text(faulty / "r.csv").find("cast_0,float32,*,NaN,cast_0:output:0") != std::string::npos);
}

TEST_CASE("outputs that cannot be compared are reported, then exit 2 with their code") {
  TempDir dir;
  write_dump(dir / "golden", {{"add", "Add", {"add"}, floats({4}, {1, 2, 3, 4})}});
  write_dump(dir / "actual", {{"add", "Add", {"add"}, floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  const auto result =
      op_validate("--golden_dir='" + (dir / "golden").string() + "' --actual_dir='" +
                      (dir / "actual").string() + "' --output='" + (dir / "r.json").string() + "'",
                  dir / "log");
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("EE7001") != std::string::npos);
  const auto report = nlohmann::json::parse(read_text(dir / "r.json"));
  CHECK(report["result"] == "error");
  CHECK(report["rows"][0]["kind"] == "not_comparable");
}

TEST_CASE("a missing dump directory or manifest is bad input") {
  TempDir dir;
  std::filesystem::create_directories(dir / "empty");
  CHECK(op_validate("--golden_dir='" + (dir / "nowhere").string() + "' --actual_dir='" +
                        (dir / "empty").string() + "'",
                    dir / "log")
            .output.find("EE4001") != std::string::npos);
  const auto no_manifest = op_validate(
      "--golden_dir='" + (dir / "empty").string() + "' --actual_dir='" + (dir / "empty").string() + "'",
      dir / "log");
  CHECK(no_manifest.exit_code == 2);
  CHECK(no_manifest.output.find("EE4001") != std::string::npos);
  write_text_atomically(dir / "empty" / "manifest.json", "{\"nodes\": [1, 2]}");
  CHECK(op_validate(
            "--golden_dir='" + (dir / "empty").string() + "' --actual_dir='" + (dir / "empty").string() + "'",
            dir / "log")
            .output.find("EE4004") != std::string::npos);
}

TEST_CASE("the whole-network HTML: compared operators first, a chart, golden-only and NPU-only rows folded") {
  TempDir dir;
  write_network_dumps(dir, 1.01f);
  const auto result = op_validate("--golden_dir='" + (dir / "golden").string() + "' --actual_dir='" +
                                      (dir / "actual").string() + "' --html='" + (dir / "r.html").string() + "'",
                                  dir / "log");
  INFO(result.output);
  // No tolerance given: the network criteria; relu2 at 1.01 is a relative distance of 0.01, far
  // above float32's 1.19e-6.
  CHECK(result.exit_code == 1);
  CHECK(result.output.find("the first is 'relu2' (Relu) output 0 [relative_distance, scale_offset]") !=
        std::string::npos);
  const std::string html = read_text(dir / "r.html");
  // The operator table lists the 4 compared rows; the golden-only conv1 and the NPU-only cast_0
  // are in the collapsed group after it, with their count.
  const std::size_t table = html.find("<table class='ops' id='ops'>");
  const std::size_t folded = html.find("<details class='skipped'><summary>Not compared: 1 golden-only and 1 NPU-only rows");
  REQUIRE(table != std::string::npos);
  REQUIRE(folded != std::string::npos);
  CHECK(table < folded);
  CHECK(html.find("<h2>Operators (4 compared)</h2>") != std::string::npos);
  const std::size_t conv1_row = html.find("<tr id='row-0'");
  CHECK(conv1_row > folded);  // golden-only conv1 (row 0) only in the folded group
  CHECK(html.find("<tr id='row-2'") > folded);  // NPU-only cast_0
  CHECK(html.find("<tr id='row-1' class='op pass'") < folded);
  CHECK(html.find("<tr id='row-4' class='op fail first'") < folded);
  // The chart: every compared output, the first failing one marked; filter and sortable headers.
  CHECK(html.find("<svg class='summary'") != std::string::npos);
  CHECK(html.find("class='first-divergent'") != std::string::npos);
  CHECK(html.find("first failing: relu2:output:0") != std::string::npos);
  CHECK(html.find("id='filter'") != std::string::npos);
  CHECK(html.find("class='sortable' data-col='5'>Cosine</th>") != std::string::npos);
  CHECK(html.find("src=") == std::string::npos);  // self-contained
  CHECK(html.find("<link") == std::string::npos);
}
