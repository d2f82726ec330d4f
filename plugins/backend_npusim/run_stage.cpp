#include "run_stage.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>
#include <asc/sdk/parallel.hpp>
#include <asc/sdk/parser.hpp>
#include <asc/sdk/registry.hpp>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <asc/sdk/msprof/collection_options.hpp>
#include <asc/sdk/msprof/profile_writer.hpp>
#include "npusim_backend.hpp"
#include "npusim_executable.hpp"
#include <asc/sdk/backend/output_paths.hpp>
#include <asc/sdk/backend/random_inputs.hpp>

namespace asc::npusim {
namespace {

constexpr const char* kStage = "npusim.run";

class CollectingSink : public ProfileSink {
 public:
  void record(const ProfileEvent& event) override { events.push_back(event); }
  std::vector<ProfileEvent> events;
};

TensorMap inputs_from_files(const std::vector<std::string>& files, const std::vector<ValueInfo>& infos) {
  if (files.size() != infos.size()) {
    std::string names;
    for (const ValueInfo& info : infos) names += (names.empty() ? "" : ", ") + info.name;
    throw Error(ErrorCode::ConfigBadValue, std::string(kStage) + ": 'inputs' lists " + std::to_string(files.size()) +
                                               " file(s), the graph has " + std::to_string(infos.size()) +
                                               " input(s) (" + names + "), in this order");
  }
  TensorMap inputs;
  for (std::size_t i = 0; i < files.size(); ++i) inputs[infos[i].name] = read_npy(files[i]);
  return inputs;
}

std::string optional_string(const StageParams& params, const std::string& name) {
  return params.has(name) ? params.get_string(name) : "";
}

// The executable to run: the .om named by `om`, else the context's graph compiled here.
std::unique_ptr<Executable> executable_for(PipelineContext& ctx, const StageParams& params) {
  BackendOptions backend_options;
  for (const char* key : {"soc_version", "soc_dir", "precision_mode"})
    if (const std::string value = optional_string(params, key); !value.empty()) backend_options[key] = value;
  if (const std::string om = optional_string(params, "om"); !om.empty()) {
    backend_options.erase("precision_mode");  // decided when the .om was compiled
    return NpusimBackend().load(om, ctx.registry.ops(), backend_options);
  }
  return NpusimBackend().compile(ctx.require_graph(kStage), ctx.registry.ops(), backend_options);
}

// What the profile names: the graph, its precision mode, and the first input's leading dimension.
msprof::ProfiledModel profiled_model(const NpusimExecutable& npu, const TensorMap& inputs) {
  const Graph& graph = npu.model().graph;
  std::int64_t batch = 0;
  if (!graph.inputs.empty())
    if (const auto it = inputs.find(graph.inputs.front()); it != inputs.end() && it->second.rank() > 0)
      batch = it->second.shape().front();
  return {graph.name, npu.model().options.precision_mode, batch};
}

void run(PipelineContext& ctx, const StageParams& params) {
  const std::unique_ptr<Executable> executable = executable_for(ctx, params);
  const auto& npu = static_cast<const NpusimExecutable&>(*executable);
  const Graph& graph = npu.model().graph;
  const std::vector<ValueInfo> input_infos = executable->input_infos();

  const std::vector<std::string> files = params.has("inputs") ? params.get_list("inputs") : std::vector<std::string>{};
  const TensorMap inputs =
      files.empty() ? random_inputs(input_infos, parse_input_shape_spec(optional_string(params, "input_shape")),
                                               static_cast<std::uint32_t>(params.get_int("seed")))
                    : inputs_from_files(files, input_infos);

  CollectingSink sink;
  RunOptions options;
  options.profile_sink = &sink;
  options.threads = threads_or_default(params.get_int("threads"), std::string(kStage) + ": 'threads'");
  if (params.has("dump_dir")) options.dump_dir = params.get_path("dump_dir");
  const TensorMap outputs = executable->execute(inputs, options);

  const std::filesystem::path output_dir = params.get_path("output_dir");
  ensure_directory(output_dir, "output directory");
  for (const auto& [name, tensor] : inputs) ctx.tensors["input:" + name] = tensor;
  for (const std::string& name : graph.outputs) {
    const Tensor& tensor = outputs.at(name);
    const std::filesystem::path file = output_dir / (file_stem_for(name) + ".npy");
    write_npy(file, tensor);
    ctx.tensors["output:" + name] = tensor;
    log_info(std::string(kStage) + ": wrote " + file.string() + " " + std::string(dtype_name(tensor.dtype())) +
             shape_to_string(tensor.shape()));
  }
  double device_us = 0;
  for (const ProfileEvent& event : sink.events) device_us = std::max(device_us, event.start_us + event.duration_us);
  char summary[160];
  std::snprintf(summary, sizeof summary, "%s: %zu tasks, simulated device time %.1f us on %s (%s)", kStage,
                sink.events.size(), device_us, npu.soc().name.c_str(), npu.model().options.precision_mode.c_str());
  log_info(summary);

  ctx.profile.model_name = graph.name;
  ctx.profile.soc_version = npu.soc().name;
  ctx.profile.events = sink.events;
  ctx.artifacts["npusim_outputs"] = output_dir;
  if (!options.dump_dir.empty()) ctx.artifacts["npusim_dump"] = options.dump_dir;
  // msprof's collection through the environment wins over profile_dir, as in ais_bench.run.
  std::optional<msprof::CollectionOptions> collection = msprof::collection_from_environment();
  if (const std::string profile_dir = optional_string(params, "profile_dir"); !collection && !profile_dir.empty())
    collection = msprof::default_collection(profile_dir);
  if (collection) {
    const std::filesystem::path prof = msprof::write_msprof_output(*collection, sink.events, npu.device(), profiled_model(npu, inputs));
    ctx.artifacts["npusim_profile"] = prof;
    log_info(std::string(kStage) + ": wrote profile " + prof.string());
  }
}

}  // namespace

StageDefinition npusim_run_stage() {
  StageDefinition stage;
  stage.name = kStage;
  stage.description =
      "run the graph on the simulated NPU (fp16 numerics, per-task timing) and write each graph output to "
      "output_dir/<name>.npy";
  stage.params = {
      {"inputs", ParamType::StringList, false, "",
       ".npy files in graph-input order; empty: seeded random inputs (floats in [-1,1), ints in [0,10))"},
      {"seed", ParamType::Int, false, "0", "seed of the random inputs"},
      {"input_shape", ParamType::String, false, "",
       "shapes for random inputs with symbolic dims, \"name:1,3,224,224;name2:...\" (others: symbolic dims = 1)"},
      {"output_dir", ParamType::Path, true, "", "directory for <output name>.npy ('/' and ':' in names become '_')"},
      {"dump_dir", ParamType::Path, false, "", "also write every node's outputs and a manifest.json here"},
      {"threads", ParamType::Int, false, "0",
       "threads each kernel may use (0: $ASC_NUM_THREADS, else every core)"},
      {"om", ParamType::Path, false, "",
       "run this .om (written by npusim.compile / atc) instead of compiling the pipeline's graph"},
      {"soc_version", ParamType::String, false, "",
       "simulated chip: a configs/soc/<name>.yaml (Ascend310P3, ...); required without 'om', and with 'om' it must "
       "be the SoC the .om was compiled for"},
      {"soc_dir", ParamType::Path, false, "", "directory of SoC files (default: $ASC_SOC_DIR, else the installed ones)"},
      {"precision_mode", ParamType::String, false, "force_fp16",
       "force_fp16, allow_fp32_to_fp16, must_keep_origin_dtype, allow_mix_precision (mixed_float16), force_fp32 "
       "(cube_fp16in_fp32out); ignored with 'om'"},
      {"profile_dir", ParamType::Path, false, "",
       "write an msprof-style PROF_*/mindstudio_profiler_output/ (op_summary, op_statistic, timeline) here"},
  };
  stage.run = run;
  return stage;
}

}  // namespace asc::npusim
