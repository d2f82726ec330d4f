#include "bench_stage.hpp"

#include <unistd.h>

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>
#include <asc/sdk/registry.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>
#include <random>

#include <asc/sdk/backend/output_paths.hpp>
#include <asc/sdk/msprof/collection_options.hpp>
#include <asc/sdk/msprof/memcpy_task.hpp>
#include <asc/sdk/msprof/profile_writer.hpp>

#include "bench_options.hpp"
#include "bench_summary.hpp"
#include "input_data.hpp"
#include "input_files.hpp"
#include "model_description.hpp"
#include "model_loading.hpp"
#include "output_files.hpp"
#include "run_shapes.hpp"

namespace asc::bench {
namespace {

using msprof::is_host_copy;

constexpr const char* kStage = "ais_bench.run";

void say(const std::string& line) { std::cout << line << '\n' << std::flush; }

// What ais_bench reads of an inference's tasks as they are recorded: the device time, from the
// first task's start to the last task's end (host-link copies excluded: NPU_compute_time is the
// execute time only), and each direction's copy time. The events themselves are kept only for a
// profile: copying every task's strings and metrics was a few percent of an npusim inference's
// host time on ResNet-50.
class TimelineSink : public ProfileSink {
 public:
  explicit TimelineSink(bool keep_events) : keep_events_(keep_events) {}

  void record(const ProfileEvent& event) override {
    if (is_host_copy(event)) {
      (msprof::memcpy_operation_name(event) == "host to device" ? h2d_us : d2h_us) += event.duration_us;
    } else {
      const double end = event.start_us + event.duration_us;
      first_us_ = any_task_ ? std::min(first_us_, event.start_us) : event.start_us;
      last_us_ = any_task_ ? std::max(last_us_, end) : end;
      any_task_ = true;
    }
    if (keep_events_) events.push_back(event);
  }

  double device_us() const { return any_task_ ? last_us_ - first_us_ : 0; }

  double h2d_us = 0, d2h_us = 0;
  std::vector<ProfileEvent> events;  // when kept

 private:
  bool keep_events_;
  bool any_task_ = false;
  double first_us_ = 0, last_us_ = 0;  // of the tasks other than host-link copies
};

// "2026_11_30-05_30_00", ais_bench's time.strftime("%Y_%m_%d-%H_%M_%S").
std::string timestamp_dirname() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y_%m_%d-%H_%M_%S", &local);
  return buffer;
}

std::vector<std::string> default_args(const StageParams& params) {
  std::vector<std::string> args = {kStage};
  for (const auto& [name, value] : params.all()) args.push_back(name + "=" + value);
  return args;
}

std::vector<Tensor> in_output_order(const TensorMap& outputs, const std::vector<ValueInfo>& infos) {
  std::vector<Tensor> ordered;
  for (const ValueInfo& info : infos) ordered.push_back(outputs.at(info.name));
  return ordered;
}

struct Inference {
  TensorMap outputs;
  std::vector<ProfileEvent> events;  // the copies and kernels, on the device timeline
  double device_ms = 0, wall_ms = 0, h2d_ms = 0, d2h_ms = 0;
};

// One inference as ais_bench runs it: inputs copied to the device, the model executed, outputs
// copied back, then a synchronize. On the simulated device the three follow each other on the
// stream, after the previous inference (on the simulator: npusim_stream.hpp).
Inference infer(Executable& executable, Stream& stream, const TensorMap& inputs, const RunOptions& base,
                bool profile, const std::filesystem::path& dump_dir) {
  TimelineSink sink(profile);
  RunOptions options = base;
  options.profile_sink = &sink;
  options.dump_dir = dump_dir;
  const auto start = std::chrono::steady_clock::now();
  Inference inference;
  executable.execute_async(stream, inputs, &inference.outputs, options);
  stream.synchronize();
  inference.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  inference.device_ms = sink.device_us() / 1000.0;
  inference.h2d_ms = sink.h2d_us / 1000.0;
  inference.d2h_ms = sink.d2h_us / 1000.0;
  if (profile) inference.events = std::move(sink.events);
  return inference;
}

// The loaded model as the benchmark sees it.
struct BenchModel {
  Executable& executable;
  const Backend& backend;
  std::vector<ValueInfo> inputs, outputs;
  std::vector<Shape> declared;  // each input's compiled shape, -1 where the profiles differ
  std::vector<Shape> shapes;    // each input's shape as run
};

// What the measured inferences produced.
struct BenchRun {
  BenchMeasurements measurements;
  std::vector<ProfileEvent> profile_events;  // every inference's tasks, back to back
  std::vector<SampleFiles> files_info;
  TensorMap last_inputs, last_outputs;
};

ProfileShapes profile_shapes(const std::vector<InputProfile>& compiled, const std::vector<ValueInfo>& inputs) {
  ProfileShapes profiles;
  for (const InputProfile& profile : compiled) {
    std::vector<Shape> shapes;
    for (const ValueInfo& info : inputs) shapes.push_back(profile.input_shapes.at(info.name));
    profiles.push_back(std::move(shapes));
  }
  return profiles;
}

std::vector<Sample> samples_for(const BenchOptions& options, const BenchModel& model) {
  if (options.inputs.empty()) return {pure_infer_sample(model.inputs.size())};
  const std::size_t input0_bytes =
      model.inputs.empty() ? 0
                           : static_cast<std::size_t>(num_elements(model.shapes.front())) * dtype_size(model.inputs.front().dtype);
  const std::int64_t input0_rows =
      model.shapes.empty() || model.shapes.front().empty() ? 1 : model.shapes.front().front();
  return group_samples(files_per_input(options.inputs, model.inputs.size()), input0_bytes, input0_rows);
}

void print_debug(const BenchModel& model, const Inference& inference, bool first) {
  char line[96];
  std::snprintf(line, sizeof line, "[DEBUG] model aclExec cost : %f", inference.device_ms);
  say(line);
  if (!first) return;
  std::vector<Shape> output_shapes;
  for (const ValueInfo& info : model.outputs) output_shapes.push_back(inference.outputs.at(info.name).shape());
  std::cout << describe_values("input", model.inputs, model.declared, model.shapes)
            << describe_values("output", model.outputs, output_shapes, output_shapes) << std::flush;
}

// Warm-up on the first sample, then `loop` measured inferences per sample; the last loop's
// outputs of each sample are written under `prefix` (when set).
BenchRun run_samples(const BenchModel& model, const BenchOptions& options, const std::vector<Sample>& samples,
                     TensorMap first_inputs, const std::filesystem::path& prefix, std::mt19937& generator,
                     bool profile, bool show_progress) {
  RunOptions run_options;
  run_options.threads = options.threads;
  run_options.timing_only = options.timing_only;
  const std::unique_ptr<Stream> stream = model.backend.create_stream();
  for (std::int64_t i = 0; i < options.warmup_count; ++i)
    infer(model.executable, *stream, first_inputs, run_options, false, {});
  say("[INFO] warm up " + std::to_string(options.warmup_count) + " done");

  const std::filesystem::path dump_dir = options.dump ? options.output / "dump" : std::filesystem::path();
  BenchRun run;
  run.last_inputs = std::move(first_inputs);
  Progress progress("Inference array Processing", static_cast<std::int64_t>(samples.size()) * options.loop,
                    show_progress);
  for (std::size_t index = 0; index < samples.size(); ++index) {
    if (index > 0)
      run.last_inputs = sample_tensors(samples[index], model.inputs, model.shapes, options.pure_data_type, generator);
    Inference last;
    for (std::int64_t loop = 0; loop < options.loop; ++loop) {
      const bool first = index == 0 && loop == 0;  // the one inference --dump writes
      last = infer(model.executable, *stream, run.last_inputs, run_options, profile,
                   first ? dump_dir : std::filesystem::path());
      if (options.debug) print_debug(model, last, first);
      run.measurements.npu_compute_ms.push_back(last.device_ms);
      run.measurements.host_wall_ms.push_back(last.wall_ms);
      run.measurements.h2d_ms.push_back(last.h2d_ms);
      run.measurements.d2h_ms.push_back(last.d2h_ms);
      for (ProfileEvent& event : last.events) run.profile_events.push_back(std::move(event));
      progress.advance();
    }
    if (!prefix.empty() && !options.timing_only) {
      const std::vector<SampleFiles> saved =
          save_outputs(in_output_order(last.outputs, model.outputs), prefix, samples[index], options.outfmt, index);
      run.files_info.insert(run.files_info.end(), saved.begin(), saved.end());
    }
    run.last_outputs = std::move(last.outputs);
  }
  return run;
}

void run(PipelineContext& ctx, const StageParams& params) {
  const BenchOptions options = parse_bench_options(params);
  BackendOptions backend_options;
  if (!options.soc_version.empty()) backend_options["soc_version"] = options.soc_version;
  if (!options.soc_dir.empty()) backend_options["soc_dir"] = options.soc_dir;
  const LoadedModel loaded = load_model(ctx.registry, options.backend, options.model, backend_options);
  const std::unique_ptr<Executable>& executable = loaded.executable;
  say("[INFO] load model " + options.model.string() + " success");
  say("[INFO] create model description success");

  BenchModel model{*executable, *ctx.registry.backend(options.backend), executable->input_infos(),
                   executable->output_infos(), {}, {}};
  const ProfileShapes profiles = profile_shapes(executable->input_profiles(), model.inputs);
  model.declared = declared_shapes(profiles);
  model.shapes = run_shapes(model.inputs, profiles, options);
  std::int64_t batchsize = 1;
  if (options.batchsize) {
    batchsize = *options.batchsize;
  } else {
    batchsize = model.shapes.empty() || model.shapes.front().empty() ? 1 : model.shapes.front().front();
    say("[INFO] try get model batchsize:" + std::to_string(batchsize));
  }

  const std::vector<Sample> samples = samples_for(options, model);
  std::mt19937 generator(0);  // fixed seed: --pure_data_type random is reproducible run to run
  TensorMap first_inputs = sample_tensors(samples.front(), model.inputs, model.shapes, options.pure_data_type, generator);
  // Created once the first inputs are known to fit, so a refused input leaves no directory behind.
  std::filesystem::path prefix;
  if (!options.output.empty()) {
    prefix = options.output / (options.output_dirname.empty() ? timestamp_dirname() : options.output_dirname);
    ensure_directory(prefix, "output directory");
    say("[INFO] output path:" + prefix.string());
  }

  // msprof's collection through the environment wins over --profiler (as the CANN runtime lets
  // PROFILER_SAMPLECONFIG win over other ways of switching profiling on).
  std::optional<msprof::CollectionOptions> collection = msprof::collection_from_environment();
  if (!collection && options.profiler) collection = msprof::default_collection(options.output / "profiler");

  if (options.timing_only) say("[INFO] timing only: the kernels are not computed and no output files are written");
  BenchRun run = run_samples(model, options, samples, std::move(first_inputs), prefix, generator,
                             collection.has_value(), ctx.show_progress);
  run.measurements.batchsize = batchsize;
  run.measurements.host_threads = options.threads;
  for (const std::string& line : summary_lines(run.measurements, options.display_all_summary)) say(line);
  const DeviceInfo device = executable->device();
  if (!device.soc_version.empty())  // a simulated device: how far its times are from real cards'
    say("[INFO] NPU_compute_time is simulated (" + device.soc_version + "); " +
        (device.timing_accuracy.empty() ? std::string("no calibration against published figures")
                                        : device.timing_accuracy));
  if (!prefix.empty()) {
    const std::vector<std::string> args = options.command_line.empty() ? default_args(params) : options.command_line;
    const std::filesystem::path summary = prefix.string() + "_summary.json";
    write_text_atomically(summary, summary_json(run.measurements, run.files_info, args, static_cast<long>(getpid()))
                                       .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    ctx.artifacts["ais_bench_outputs"] = prefix;
    ctx.artifacts["ais_bench_summary"] = summary;
  }
  if (collection) {
    const msprof::ProfiledModel profiled{options.model.stem().string(), loaded.info.precision_mode, batchsize};
    const std::filesystem::path prof = msprof::write_msprof_output(*collection, run.profile_events, device, profiled);
    ctx.artifacts["profile"] = prof;
    log_info(std::string(kStage) + ": wrote profile " + prof.string());
  }
  if (options.dump) ctx.artifacts["dump"] = options.output / "dump";
  for (const auto& [name, tensor] : run.last_inputs) ctx.tensors["input:" + name] = tensor;
  if (!options.timing_only)  // a timing-only run's outputs are placeholders, not results
    for (const auto& [name, tensor] : run.last_outputs) ctx.tensors["output:" + name] = tensor;
  ctx.profile.model_name = options.model.stem().string();
  ctx.profile.soc_version = device.soc_version;
  ctx.profile.events = std::move(run.profile_events);
  say("[INFO] unload model success, model Id is 1");
}

}  // namespace

StageDefinition bench_stage() {
  StageDefinition stage;
  stage.name = kStage;
  stage.description =
      "ais_bench: run an .om on a backend (the simulated NPU by default) on files or generated data, print "
      "ais_bench's performance summary (NPU_compute_time = simulated device time) and write outputs, "
      "_summary.json, profiles or dumps";
  stage.params = bench_param_specs();
  stage.run = run;
  return stage;
}

}  // namespace asc::bench
