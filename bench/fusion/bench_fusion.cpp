// Times every registered graph pass (scope fusion included) over a parsed model, repeated on
// fresh copies, with two same-run baselines: copying the graph (tensors shared, as Graph's copy
// does) and cloning every initializer (what writing new weights costs on this machine).
//
//   bench_fusion MODEL.onnx [INPUT_SHAPE] [REPEATS]
//   bench_fusion resnet50.onnx input:1,3,224,224 20
//
// Plugins come from the same search path as `asc` ($ASC_PLUGIN_PATH, then <exe>/../lib/asc/plugins).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/parser.hpp>
#include <asc/sdk/registry.hpp>

namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_fusion MODEL.onnx [INPUT_SHAPE] [REPEATS]\n");
    return 2;
  }
  const std::filesystem::path model = argv[1];
  asc::ParseOptions options;
  if (argc > 2) options.input_shapes = asc::parse_input_shape_spec(argv[2]);
  const int repeats = argc > 3 ? std::max(1, std::stoi(argv[3])) : 20;

  asc::host::PluginHost host(asc::host::plugin_search_path({}));
  host.load_all();
  host.require({"parser_onnx", "ops_builtin", "fusion"});
  const asc::Registry& registry = host.registry();
  const asc::Parser* parser = registry.parser_for(model);
  if (parser == nullptr) throw asc::Error(asc::ErrorCode::FrameworkUnsupported, "no parser for " + model.string());
  const asc::Graph parsed = parser->parse(model, options);
  const asc::PassContext context{registry.ops()};

  std::vector<double> copy_ms, clone_ms, passes_ms;
  std::map<std::string, std::vector<double>> per_pass;
  std::size_t nodes_after = 0;
  for (int r = 0; r < repeats; ++r) {
    Clock::time_point start = Clock::now();
    asc::Graph graph = parsed;
    copy_ms.push_back(elapsed_ms(start));
    start = Clock::now();
    {
      std::vector<asc::Tensor> clones;
      for (const auto& [name, tensor] : parsed.initializers) clones.push_back(tensor.clone());
      clone_ms.push_back(elapsed_ms(start));
    }
    start = Clock::now();
    for (const auto& registered : registry.passes()) {
      const Clock::time_point pass_start = Clock::now();
      registered.item->run(graph, context);
      per_pass[registered.item->name()].push_back(elapsed_ms(pass_start));
    }
    passes_ms.push_back(elapsed_ms(start));
    nodes_after = graph.node_count();
  }
  std::printf("model %s: %zu nodes -> %zu, %d runs (medians)\n", model.filename().c_str(), parsed.node_count(), nodes_after,
              repeats);
  for (const auto& registered : registry.passes())
    std::printf("  %-32s %8.3f ms\n", registered.item->name().c_str(), median(per_pass[registered.item->name()]));
  const double copy = median(copy_ms);
  const double clone = median(clone_ms);
  const double passes = median(passes_ms);
  std::printf("all passes %.3f ms; graph copy %.3f ms (ratio %.1f); initializer clone %.3f ms (ratio %.2f)\n", passes,
              copy, passes / copy, clone, passes / clone);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fusion: %s\n", e.what());
    return 1;
  }
}
