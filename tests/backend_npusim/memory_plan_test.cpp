// Memory planning on small fp32 graphs (must_keep_origin_dtype: no Casts, 4 bytes per element):
// arena sizes worked out by hand from the lifetimes, and EE3001 on a SoC with 16 KiB of memory.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "compiler/compile_model.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

npusim::CompiledModel compile_for_memory_plan(const Graph& graph, BackendOptions options,
                                              const std::string& soc_dir = ASC_NPUSIM_SOURCE_SOC_DIR) {
  options["soc_dir"] = soc_dir;
  options["soc_version"] = "Ascend310P3";
  options["precision_mode"] = "must_keep_origin_dtype";
  return npusim::compile_model(graph, plugin_registry().ops(), npusim::parse_compile_options(options));
}

// x -> r1 -> a -> r2 -> b -> r3 -> c -> r4 -> y, every value [1, 1024] fp32 = 4096 bytes.
Graph relu_chain(std::int64_t width = 1024) {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, width})}, {"y"});
  add_node(graph, "r1", "Relu", {"x"}, {"a"});
  add_node(graph, "r2", "Relu", {"a"}, {"b"});
  add_node(graph, "r3", "Relu", {"b"}, {"c"});
  add_node(graph, "r4", "Relu", {"c"}, {"y"});
  return graph;
}

std::map<std::string, npusim::ValuePlacement> placements(const npusim::CompiledProfile& profile) {
  std::map<std::string, npusim::ValuePlacement> values;
  for (const auto& value : profile.values) values[value.value] = value;
  return values;
}

}  // namespace

TEST_CASE("chain: a and c never live together, so two 4096-byte buffers hold three activations") {
  const auto model = compile_for_memory_plan(relu_chain(), {});
  const auto& memory = model.profiles.front().memory;
  // Lifetimes (task index of writer .. last reader): a 0..1, b 1..2, c 2..3.
  CHECK(memory.activation_bytes == 2 * 4096);
  CHECK(memory.activation_bytes_no_reuse == 3 * 4096);
  CHECK(memory.input_bytes == 4096);
  CHECK(memory.output_bytes == 4096);
  CHECK(memory.weight_bytes == 0);
  const auto values = placements(model.profiles.front());
  CHECK(values.at("a").offset == values.at("c").offset);
  CHECK(values.at("a").offset != values.at("b").offset);
  CHECK(values.at("b").first_task == 1);
  CHECK(values.at("b").last_task == 2);

  const auto no_reuse = compile_for_memory_plan(relu_chain(), {{"disable_reuse_memory", "1"}});
  CHECK_FALSE(no_reuse.profiles.front().memory.reuse);
  CHECK(no_reuse.profiles.front().memory.activation_bytes == 3 * 4096);
}

TEST_CASE("diamond: the join's output reuses the fork's input buffer") {
  // x -> r1 -> a; a -> r2 -> b; a -> r3 -> c; b + c -> d; d -> r4 -> y.
  // Lifetimes: a 0..2, b 1..3, c 2..3, d 3..4. a, b, c overlap pairwise (3 buffers); d overlaps
  // b and c but not a, and the greedy best fit puts it into a's 4096 bytes at offset 0.
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 1024})}, {"y"});
  add_node(graph, "r1", "Relu", {"x"}, {"a"});
  add_node(graph, "r2", "Relu", {"a"}, {"b"});
  add_node(graph, "r3", "Relu", {"a"}, {"c"});
  add_node(graph, "add", "Add", {"b", "c"}, {"d"});
  add_node(graph, "r4", "Relu", {"d"}, {"y"});
  const auto model = compile_for_memory_plan(graph, {});
  CHECK(model.profiles.front().memory.activation_bytes == 3 * 4096);
  CHECK(model.profiles.front().memory.activation_bytes_no_reuse == 4 * 4096);
  const auto values = placements(model.profiles.front());
  CHECK(values.at("d").offset == values.at("a").offset);
}

TEST_CASE("buffers are 512-byte aligned; a Reshape aliases its input's buffer") {
  // [1, 100] fp32 = 400 bytes -> one 512-byte block each.
  CHECK(compile_for_memory_plan(relu_chain(100), {}).profiles.front().memory.activation_bytes == 2 * 512);
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 1024})}, {"y"});
  graph.initializers["shape"] = Tensor::from_vector<std::int64_t>({1}, {1024});
  add_node(graph, "r1", "Relu", {"x"}, {"a"});
  add_node(graph, "reshape", "Reshape", {"a", "shape"}, {"b"});
  add_node(graph, "r2", "Relu", {"b"}, {"y"});
  const auto model = compile_for_memory_plan(graph, {});
  CHECK(model.profiles.front().memory.activation_bytes == 4096);
  CHECK(model.profiles.front().memory.activation_bytes_no_reuse == 4096);
  const auto values = placements(model.profiles.front());
  CHECK(values.at("b").offset == values.at("a").offset);
  CHECK(values.at("shape").region == npusim::ValuePlacement::Region::Weight);
  CHECK(model.profiles.front().memory.weight_bytes == 512);  // 8 bytes, one aligned block
}

TEST_CASE("EE3001 names the profile, the sizes and the largest tensor when the plan exceeds device memory") {
  TempDir dir;
  const std::filesystem::path soc_dir = dir / "soc";
  std::filesystem::create_directories(soc_dir / "ops_info");
  const std::filesystem::path source = ASC_NPUSIM_SOURCE_SOC_DIR;
  std::ifstream in(source / "Ascend310P3.yaml");
  std::stringstream text;
  text << in.rdbuf();
  // 2^-16 GiB = 16384 bytes of device memory.
  const std::string tiny = std::regex_replace(text.str(), std::regex("size_gib: *[0-9.]+"), "size_gib: 0.0000152587890625");
  std::ofstream(soc_dir / "Ascend310P3.yaml") << tiny;
  for (const char* file : {"Ascend310P3.yaml", "ai_core_common.yaml"})
    std::filesystem::copy_file(source / "ops_info" / file, soc_dir / "ops_info" / file);

  // [1, 2048] fp32 = 8192 bytes: the input, one activation and the output alone are 24576 bytes.
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 2048})}, {"y"});
  graph.initializers["w"] = floats({1, 2048}, std::vector<float>(2048, 1.0f));
  add_node(graph, "mul", "Mul", {"x", "w"}, {"a"});
  add_node(graph, "relu", "Relu", {"a"}, {"y"});
  const Error error = error_from([&] { compile_for_memory_plan(graph, {}, soc_dir.string()); });
  CHECK(error.code() == ErrorCode::MemoryAllocationFailed);
  for (const char* part : {"profile static", "32768 bytes", "16384 bytes", "weights 8192", "'x'", "8192 bytes"})
    CHECK_MESSAGE(error.message().find(part) != std::string::npos, part, " in ", error.message());
  // The same graph fits the real Ascend310P3.
  CHECK(compile_for_memory_plan(graph, {}).profiles.front().memory.total_bytes() == 4 * 8192);
}
