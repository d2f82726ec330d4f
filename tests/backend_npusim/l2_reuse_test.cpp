// The L2 rule across tasks (profile_task_inputs): an input is read from L2 when its reuse
// distance fits it, i.e. the bytes the tasks since its last use loaded and wrote, plus its own,
// are at most the SoC's L2 (16 MiB on the 310P3). Expectations computed by hand from the shapes.
#include <doctest/doctest.h>

#include "compiler/compile_model.hpp"
#include "compiler/task_input.hpp"
#include "npusim_support.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

// x -> Relu r1 -> Relu r2 -> Relu r3 -> Add(r3, r1) -> y, every value [rows, 4096] fp16: the Add
// reads r3 (written by the task before it) and r1 (used two tasks before it).
std::int64_t add_resident_bytes(std::int64_t rows) {
  Graph graph = make_graph({tensor_info("x", DType::Float16, {rows, 4096})}, {"y"});
  add_node(graph, "r1", "Relu", {"x"}, {"r1"});
  add_node(graph, "r2", "Relu", {"r1"}, {"r2"});
  add_node(graph, "r3", "Relu", {"r2"}, {"r3"});
  add_node(graph, "add", "Add", {"r3", "r1"}, {"y"});
  BackendOptions options{{"soc_dir", ASC_NPUSIM_SOURCE_SOC_DIR}, {"soc_version", "Ascend310P3"}};
  const npusim::CompiledModel model =
      npusim::compile_model(graph, plugin_registry().ops(), npusim::parse_compile_options(options));
  const auto tasks = npusim::profile_task_inputs(model.graph, plugin_registry().ops(), model.profiles.at(0),
                                                 soc("Ascend310P3"));
  const auto nodes = model.graph.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i]->name == "add") return tasks.at(i).l2_resident_input_bytes;
  FAIL("no task for the Add");
  return -1;
}

}  // namespace

TEST_CASE("L2 reuse distance: a value used two tasks ago is still in L2 when the traffic since fits") {
  // 64 x 4096 fp16 = 512 KiB per value: r1's distance is r2 (in + out) + r3 (in + out) + itself
  // = 2.5 MiB <= 16 MiB, so both Add inputs are in L2.
  CHECK(add_resident_bytes(64) == 2 * 64 * 4096 * 2);
}

TEST_CASE("L2 reuse distance: a value evicted by the traffic since is read from device memory") {
  // 1024 x 4096 fp16 = 8 MiB per value: r3 (8 MiB, written by the previous task) fits, r1's
  // distance is 4 x 8 + 8 = 40 MiB > 16 MiB, so only r3 is in L2.
  CHECK(add_resident_bytes(1024) == 1024 * 4096 * 2);
}
