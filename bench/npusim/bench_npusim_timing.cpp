// The npusim timing model on a whole network: simulated device time per SoC (total, fraction of
// the fp16 cube peak, and where the rest goes), and the model's own wall time against a same-run
// baseline (parsing the ONNX file).
//
//   bench_npusim_timing MODEL.onnx [REPEATS] [SOC...]
//   bench_npusim_timing resnet50.onnx 20 Ascend310P3 Ascend910
//
// The graph goes through what atc does: parse, every registered graph pass (fusion), then
// compile_model for the SoC (precision, layouts, tiling, memory plan). "Timing model" is
// time_task over every task of the compiled profile with its tiling; "tiling" is choose_tiling
// over every task; both are medians of REPEATS runs. Plugins come from the same search path as
// `asc` ($ASC_PLUGIN_PATH, then <exe>/../lib/asc/plugins); SoC files from configs/soc.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/parser.hpp>
#include <asc/sdk/registry.hpp>

#include "compiler/compile_model.hpp"
#include "compiler/task_input.hpp"
#include "compiler/tiling.hpp"
#include "timing_model.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using namespace asc;
using namespace asc::npusim;

double elapsed_ms(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Where a network's simulated time goes.
struct Breakdown {
  int tasks = 0, cube_tasks = 0, vector_tasks = 0, cpu_tasks = 0, memory_bound_cube = 0, memory_bound_vector = 0;
  double total_us = 0, launch_us = 0, cube_us = 0, vector_us = 0, cpu_us = 0;
  double cube_memory_bound_us = 0, vector_memory_bound_us = 0;
  double cube_flops = 0, padded_cube_flops = 0, cube_busy_us = 0;  // cube_busy: MMAD time, all cores / cores
  double cube_mac_us = 0;          // the busiest core's MMAD time, summed over cube tasks
  double cube_memory_copy_us = 0;  // memory time not hidden under the cube, summed
};

Breakdown breakdown(const SocConfig& soc, const CompiledProfile& profile, const std::vector<TaskInput>& inputs,
                    const std::vector<TaskTiming>& timings) {
  Breakdown b;
  for (std::size_t i = 0; i < profile.tasks.size(); ++i) {
    if (profile.tasks[i].unit == ComputeUnit::None) continue;
    const TaskTiming& t = timings[i];
    ++b.tasks;
    b.total_us += t.duration_us;
    b.launch_us += soc.fixed.kernel_launch_us;
    // Memory-bound: a data-movement pipe or the chip's memory, not the compute pipe, sets the time.
    const bool memory_bound = t.memory_us > t.compute_us;
    if (t.task_type == "AI_CPU") {
      ++b.cpu_tasks;
      b.cpu_us += t.duration_us;
    } else if (inputs[i].unit == ComputeUnit::Cube) {
      ++b.cube_tasks;
      b.cube_us += t.duration_us;
      b.cube_flops += t.exact_flops;
      b.padded_cube_flops += t.padded_flops;
      b.cube_busy_us += t.cube_utilization / 100 * t.duration_us;
      b.cube_mac_us += t.compute_us;
      b.cube_memory_copy_us += t.memory_copy_us;
      if (memory_bound) {
        ++b.memory_bound_cube;
        b.cube_memory_bound_us += t.duration_us;
      }
    } else {
      ++b.vector_tasks;
      b.vector_us += t.duration_us;
      if (memory_bound) {
        ++b.memory_bound_vector;
        b.vector_memory_bound_us += t.duration_us;
      }
    }
  }
  return b;
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_npusim_timing MODEL.onnx [REPEATS] [SOC...]\n");
    return 2;
  }
  const std::filesystem::path model = argv[1];
  const int repeats = argc > 2 ? std::max(1, std::stoi(argv[2])) : 20;
  std::vector<std::string> socs;
  for (int i = 3; i < argc; ++i) socs.push_back(argv[i]);
  if (socs.empty()) socs = {"Ascend310P3", "Ascend910"};

  host::PluginHost host(host::plugin_search_path({}));
  host.load_all();
  host.require({"parser_onnx", "ops_builtin", "fusion"});
  const Registry& registry = host.registry();
  const Parser* parser = registry.parser_for(model);
  if (parser == nullptr) throw Error(ErrorCode::FrameworkUnsupported, "no parser for " + model.string());

  std::vector<double> parse_ms;
  Graph graph;
  for (int r = 0; r < repeats; ++r) {
    const Clock::time_point start = Clock::now();
    graph = parser->parse(model, ParseOptions{});
    parse_ms.push_back(elapsed_ms(start));
  }
  const PassContext context{registry.ops()};
  for (const auto& pass : registry.passes()) pass.item->run(graph, context);
  std::printf("model %s: parse %.2f ms (median of %d; the baseline), %zu nodes after fusion\n",
              model.filename().c_str(), median(parse_ms), repeats, graph.node_count());

  for (const std::string& soc_version : socs) {
    CompileOptions options;
    options.soc_version = soc_version;
    options.soc_dir = ASC_NPUSIM_SOURCE_SOC_DIR;
    const SocConfig soc = load_soc(soc_version, ASC_NPUSIM_SOURCE_SOC_DIR);
    Clock::time_point start = Clock::now();
    const CompiledModel compiled = compile_model(graph, registry.ops(), options);
    const double compile_ms = elapsed_ms(start);
    const CompiledProfile& profile = compiled.profiles.at(0);
    const std::vector<TaskInput> inputs = profile_task_inputs(compiled.graph, registry.ops(), profile, soc);

    std::vector<double> tiling_ms, timing_ms;
    std::vector<TaskTiming> timings(profile.tasks.size());
    for (int r = 0; r < repeats; ++r) {
      start = Clock::now();
      for (std::size_t i = 0; i < inputs.size(); ++i)
        if (profile.tasks[i].unit != ComputeUnit::None) (void)choose_tiling(soc, inputs[i]);
      tiling_ms.push_back(elapsed_ms(start));
      start = Clock::now();
      for (std::size_t i = 0; i < inputs.size(); ++i)
        if (profile.tasks[i].unit != ComputeUnit::None) timings[i] = time_task(soc, inputs[i], profile.tasks[i].tiling);
      timing_ms.push_back(elapsed_ms(start));
    }

    const Breakdown b = breakdown(soc, profile, inputs, timings);
    const double peak_flops_per_us = soc.cube_fp16_peak_flops() * 1e-6;
    const double at_peak_us = b.cube_flops / peak_flops_per_us;
    std::printf("\n%s: %d tasks, simulated %.1f us (back to back on one stream)\n", soc_version.c_str(), b.tasks,
                b.total_us);
    std::printf("  cube work %.3f GFLOP (%.3f padded): %.1f us at the fp16 peak = %.1f %% of peak achieved\n",
                b.cube_flops * 1e-9, b.padded_cube_flops * 1e-9, at_peak_us, 100 * at_peak_us / b.total_us);
    std::printf("  cube tasks   %3d: %8.1f us (%4.1f %%), MMADs busy %.1f us; %d memory-bound, %.1f us\n", b.cube_tasks,
                b.cube_us, 100 * b.cube_us / b.total_us, b.cube_busy_us, b.memory_bound_cube, b.cube_memory_bound_us);
    std::printf("    of which: launch %.1f us, busiest core's MMADs %.1f us, memory not hidden under them %.1f us, "
                "pipeline fill/drain %.1f us\n",
                b.cube_tasks * soc.fixed.kernel_launch_us, b.cube_mac_us, b.cube_memory_copy_us,
                b.cube_us - b.cube_tasks * soc.fixed.kernel_launch_us - b.cube_mac_us - b.cube_memory_copy_us);
    std::printf("  vector tasks %3d: %8.1f us (%4.1f %%); %d memory-bound, %.1f us\n", b.vector_tasks, b.vector_us,
                100 * b.vector_us / b.total_us, b.memory_bound_vector, b.vector_memory_bound_us);
    std::printf("  AI CPU tasks %3d: %8.1f us\n", b.cpu_tasks, b.cpu_us);
    std::printf("  launch cost (%.1f us per task, inside the above): %.1f us (%4.1f %%)\n", soc.fixed.kernel_launch_us,
                b.launch_us, 100 * b.launch_us / b.total_us);
    std::printf("  wall: timing model %.3f ms, tiling %.3f ms (medians), compile_model %.1f ms; parse %.2f ms\n",
                median(timing_ms), median(tiling_ms), compile_ms, median(parse_ms));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_npusim_timing: %s\n", e.what());
    return 1;
  }
}
