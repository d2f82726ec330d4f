// Never faster than physics: on every task of ResNet-50 and of small models (MobileNetV2, a
// BERT-style encoder, a YOLO-style detector; exported by tools/export_model.py) on every SoC,
// timed through the tiling the compiler chose, the simulated time is at least
// max(FLOPs / peak, bytes / bandwidth), with FLOPs and bytes from the operators' own cost facts
// and the peaks from the SoC's published figures; and every tiling fits the SoC's buffers.
// An embedding Gather is timed by the rows it picks.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>

#include "compiler/task_input.hpp"
#include "compiler/tiling.hpp"
#include "npusim_executable.hpp"
#include "npusim_support.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

struct Bound {
  double flops_us = 0, bytes_us = 0;
};

// The physical floor of one node on `s`, from its cost facts at fp16 (force_fp16).
Bound physics_bound(const Graph& graph, const Node& node, const npusim::SocConfig& s) {
  const OpDefinition* op = find_op(plugin_registry().ops(), graph, node);
  REQUIRE(op != nullptr);
  std::vector<const ValueInfo*> inputs, outputs;
  for (const std::string& name : node.inputs) inputs.push_back(graph.value_info(name));
  for (const std::string& name : node.outputs) outputs.push_back(graph.value_info(name));
  const CostFacts facts = op->cost(CostContext{node, inputs, outputs});
  const double clock_hz = s.clock_mhz * 1e6;
  const double peak = facts.unit == ComputeUnit::Cube
                          ? s.cube_fp16_peak_flops()
                          : (s.vector_bytes_per_cycle / 2) * (s.split ? s.vector_cores : s.ai_cores) * clock_hz;
  const double bytes = static_cast<double>(facts.bytes_read + facts.bytes_written) / 2;  // fp32 -> fp16
  const double bandwidth = std::max(s.device_memory_bandwidth_gbs, s.l2_bandwidth_gbs) * 1e9;
  return {facts.flops / peak * 1e6, bytes / bandwidth * 1e6};
}

}  // namespace

TEST_CASE("ResNet-50: every task is at least max(FLOPs/peak, bytes/bandwidth) on Ascend310P3 and Ascend910") {
  const Graph& graph = resnet50();
  std::mt19937 generator(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> image(3 * 224 * 224);
  for (float& v : image) v = uniform(generator);
  const TensorMap inputs = {{graph.inputs[0], floats({1, 3, 224, 224}, image)}};

  for (const std::string soc_version : {"Ascend310P3", "Ascend910"}) {
    CAPTURE(soc_version);
    const npusim::SocConfig s = soc(soc_version);
    EventCollector events;
    RunOptions options;
    options.profile_sink = &events;
    const std::unique_ptr<Executable> executable = compile_npusim(graph, soc_version);
    executable->execute(inputs, options);
    REQUIRE(events.events.size() > 100);

    const auto& compiled = dynamic_cast<const npusim::NpusimExecutable&>(*executable).model();
    int tiled = 0;
    for (const npusim::CompiledTask& task : compiled.profiles.at(0).tasks) {
      CAPTURE(task.node);
      const npusim::Tiling& t = task.tiling;
      CHECK(t.l0a_bytes <= s.l0a_bytes);
      CHECK(t.l0b_bytes <= s.l0b_bytes);
      CHECK(t.l0c_bytes <= s.l0c_bytes);
      CHECK(t.l1_bytes <= s.l1_bytes);
      CHECK(t.ub_bytes <= s.ub_bytes);
      if (task.unit == ComputeUnit::Cube) CHECK((t.base_m > 0 && t.base_k > 0 && t.base_n > 0 && t.l1_k > 0));
      if (task.unit == ComputeUnit::Vector) CHECK(t.ub_tile_elements > 0);
      tiled += task.unit == ComputeUnit::Cube || task.unit == ComputeUnit::Vector;
    }
    const auto ai_core_tasks = std::count_if(events.events.begin(), events.events.end(),
                                             [](const ProfileEvent& e) { return e.task_type != "AI_CPU"; });
    CHECK(tiled == ai_core_tasks);

    double total_us = 0, cube_flops = 0;
    for (const ProfileEvent& event : events.events) {
      CAPTURE(event.op_name);
      const Node* node = compiled.graph.find_node(event.op_name);  // Casts the compiler inserted included
      REQUIRE(node != nullptr);
      const Bound bound = physics_bound(compiled.graph, *node, s);
      CHECK(event.duration_us >= bound.flops_us);
      CHECK(event.duration_us >= bound.bytes_us);
      CHECK(event.start_us == doctest::Approx(total_us));  // back to back on stream 0
      total_us += event.duration_us;
      if (event.op_type == "Conv" || event.op_type == "Gemm" || event.op_type == "MatMul") cube_flops += event.metrics.at("flops");
    }
    const double fraction = cube_flops / (s.cube_fp16_peak_flops() * total_us * 1e-6);
    MESSAGE(soc_version << ": ResNet-50 batch 1, " << events.events.size() << " tasks, simulated " << total_us
                        << " us, " << cube_flops / 1e9 << " GFLOP on the cube = " << 100 * fraction
                        << " % of the fp16 cube peak");
    CHECK(cube_flops == doctest::Approx(8.2e9).epsilon(0.01));  // 4.09 GMAC (torchvision)
  }
}

TEST_CASE("small models: no task is faster than its SoC's physics, on every SoC (timing-only runs)") {
  // Depthwise convolutions (MobileNetV2), attention, LayerNorm and GELU (a small BERT-style
  // encoder), and upsampling, concatenation and a box decoder (a YOLO-style detector), each task
  // against its own floor on coupled and split SoCs. Timing-only: the simulated time does not
  // depend on the data (tests/ais_bench: a timing-only profile equals the full run's).
  for (const std::string model : {"mobilenet_v2", "bert_encoder", "yolo_style"}) {
    const Graph& graph = exported_model(model);
    for (const std::string soc_version : {"Ascend310", "Ascend310P3", "Ascend910", "Ascend910B2"}) {
      CAPTURE(model);
      CAPTURE(soc_version);
      const npusim::SocConfig s = soc(soc_version);
      const std::unique_ptr<Executable> executable = compile_npusim(graph, soc_version);
      TensorMap inputs;
      for (const ValueInfo& info : executable->input_infos()) inputs[info.name] = Tensor(info.dtype, info.static_shape());
      EventCollector events;
      RunOptions options;
      options.profile_sink = &events;
      options.timing_only = true;
      executable->execute(inputs, options);
      REQUIRE(events.events.size() > 10);
      const auto& compiled = dynamic_cast<const npusim::NpusimExecutable&>(*executable).model();
      for (const ProfileEvent& event : events.events) {
        CAPTURE(event.op_name);
        const Node* node = compiled.graph.find_node(event.op_name);
        REQUIRE(node != nullptr);
        const Bound bound = physics_bound(compiled.graph, *node, s);
        CHECK(event.duration_us >= bound.flops_us);
        CHECK(event.duration_us >= bound.bytes_us);
        CHECK(event.duration_us > 0);
      }
    }
  }
}

TEST_CASE("an embedding Gather is timed by the rows it picks, not by its table") {
  // BERT-base's token embedding: 512 ids into a 30522 x 768 table. Read whole, the fp16 table is
  // 47 MB, 229 us at the 310P3's 204.8 GB/s; the 512 rows it picks are 0.79 MB in and out.
  const npusim::SocConfig s = soc("Ascend310P3");
  const OpDefinition* gather = plugin_registry().ops().find("", "Gather", 13);
  REQUIRE(gather != nullptr);
  const Node node{"tokens", "Gather", "", {}, {"table", "ids"}, {"y"}, {}};
  const ValueInfo ids = ValueInfo::from_shape("ids", DType::Int64, {1, 512});
  const ValueInfo y = ValueInfo::from_shape("y", DType::Float32, {1, 512, 768});
  auto duration_us = [&](std::int64_t rows) {
    const ValueInfo table = ValueInfo::from_shape("table", DType::Float32, {rows, 768});
    const npusim::TaskInput task =
        npusim::make_task_input(s, node, gather, ComputeUnit::Vector, DType::Float16, {&table, &ids}, {&y}, 0);
    return npusim::time_task(s, task, npusim::choose_tiling(s, task)).duration_us;
  };
  const double bert = duration_us(30522);
  CHECK(bert < 30522.0 * 768 * 2 / 204.8e3 / 10);  // a tenth of reading the table
  CHECK(bert >= 2 * 512.0 * 768 * 2 / 204.8e3);     // never below moving the picked rows
  CHECK(bert == doctest::Approx(duration_us(1024)).epsilon(0.02));  // the table's size does not matter
}
