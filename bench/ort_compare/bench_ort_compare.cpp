// The functional run of a model on our backends (reference, npusim) against ONNX Runtime's CPU
// run of the same model, same input and thread count, in the same benchmark run (BENCHMARKS.md,
// "Functional execution against ONNX Runtime"). Each round runs ONNX Runtime (a child process,
// ort_run.js) and then every backend, each warmed up and timed over --runs runs (with
// --interleave, an untimed and a timed run of each alternate instead); medians and the ratio
// ours/ORT are printed per round, and each backend's output is compared with ORT's.
//
//   bench_ort_compare MODEL.onnx [options]          (--help lists them)
//
// Plugins come from the same search path as `asc` ($ASC_PLUGIN_PATH, then <exe>/../lib/asc/plugins).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <asc/host/memory_policy.hpp>
#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/parser.hpp>
#include <asc/sdk/registry.hpp>

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kUsage = R"(usage: bench_ort_compare MODEL.onnx [options]

  --threads N         intra-op threads for ONNX Runtime and our backends (default 2)
  --runs N            timed runs per runtime and round (default 20)
  --warmup N          untimed runs before them (default 3)
  --rounds N          rounds of [ORT, our backends] in this invocation (default 1)
  --interleave        within a round, alternate ORT and each backend --runs times, one untimed and
                      one timed run each time (a machine whose speed drifts then slows all alike)
  --backends LIST     comma-separated backends to time (default reference,npusim)
  --soc NAME          npusim's soc_version (default Ascend310P3)
  --precision MODE    npusim's precision_mode (default force_fp16)
  --no-fusion         run the graph as parsed instead of after every registered pass
  --input-shape SPEC  fixes dynamic input dimensions, as onnx.load's input_shape ("input:1,3,224,224")
  --ort-dir DIR       node_modules holding onnxruntime-node (default: the build tree's, see BENCHMARKS.md)
  --ort-opt LEVEL     ONNX Runtime's graphOptimizationLevel (default all)
  --node PATH         the node executable (default node)
)";

struct Options {
  std::filesystem::path model;
  int threads = 2;
  int runs = 20;
  int warmup = 3;
  int rounds = 1;
  bool interleave = false;
  std::vector<std::string> backends{"reference", "npusim"};
  std::string soc = "Ascend310P3";
  std::string precision = "force_fp16";
  bool fusion = true;
  std::string input_shape;
  std::filesystem::path ort_dir = ASC_BENCH_ORT_NODE_MODULES;
  std::string ort_opt = "all";
  std::string node = "node";
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw asc::Error(asc::ErrorCode::UsageError, "option " + arg + " needs a value");
      return argv[++i];
    };
    auto positive = [&]() {
      const std::string text = value();
      const int number = std::atoi(text.c_str());
      if (number < 1) throw asc::Error(asc::ErrorCode::UsageError, "option " + arg + " needs a positive number, not '" + text + "'");
      return number;
    };
    if (arg == "--threads") options.threads = positive();
    else if (arg == "--runs") options.runs = positive();
    else if (arg == "--warmup") options.warmup = std::max(0, std::atoi(value().c_str()));
    else if (arg == "--rounds") options.rounds = positive();
    else if (arg == "--backends") options.backends = split(value(), ',');
    else if (arg == "--soc") options.soc = value();
    else if (arg == "--precision") options.precision = value();
    else if (arg == "--no-fusion") options.fusion = false;
    else if (arg == "--interleave") options.interleave = true;
    else if (arg == "--input-shape") options.input_shape = value();
    else if (arg == "--ort-dir") options.ort_dir = value();
    else if (arg == "--ort-opt") options.ort_opt = value();
    else if (arg == "--node") options.node = value();
    else if (arg.starts_with("--")) throw asc::Error(asc::ErrorCode::UsageError, "unknown option " + arg + "\n" + kUsage);
    else if (options.model.empty()) options.model = arg;
    else throw asc::Error(asc::ErrorCode::UsageError, "unexpected argument '" + arg + "'\n" + kUsage);
  }
  if (options.model.empty()) throw asc::Error(asc::ErrorCode::UsageError, std::string("no model given\n") + kUsage);
  return options;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string dims_text(const asc::Shape& shape) {
  std::string text;
  for (const std::int64_t dim : shape) text += (text.empty() ? "" : ",") + std::to_string(dim);
  return text;
}

// CPU time (user + system) of every thread of this process so far.
double process_cpu_ms() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

// Resident memory of this process now, from /proc/self/status (VmRSS), in MiB.
double current_rss_mb() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  return 0;
}

// The peak resident memory of this process so far, in MiB.
double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

struct Timed {
  std::vector<double> times_ms;
  std::vector<double> cpu_ms;  // less disturbed than wall time when other work shares the cores
  std::vector<float> output;
  double rss_before_mb = 0;  // ONNX Runtime: node's resident memory before the session
  double peak_rss_mb = 0;    // ONNX Runtime: its process's peak
};

// The command that runs ort_run.js on the input written to work/input.f32; `runs` is a count
// or "serve" (then the shell execs node, so the child's pid is node's own for OrtServer's
// signals).
std::string ort_command(const Options& options, const std::filesystem::path& work, const std::string& input_name,
                        const asc::Shape& input_shape, const std::string& runs) {
  return "NODE_PATH=" + shell_quote(options.ort_dir.string()) + (runs == "serve" ? " exec " : " ") +
         shell_quote(options.node) + " " +
         shell_quote(ASC_BENCH_ORT_SCRIPT) + " " + shell_quote(options.model.string()) + " " +
         shell_quote((work / "input.f32").string()) + " " + shell_quote(input_name) + " " + dims_text(input_shape) +
         " " + std::to_string(options.threads) + " " + std::to_string(options.warmup) + " " + runs + " " +
         shell_quote((work / "ort_output.f32").string()) + " " + shell_quote(options.ort_opt);
}

asc::Error ort_failed(const Options& options, const std::string& command) {
  return asc::Error(asc::ErrorCode::ExecutionFailed, "ONNX Runtime's run failed (is onnxruntime-node installed in " +
                                                         options.ort_dir.string() + "? see BENCHMARKS.md): " + command);
}

// ort_run.js's last line (`summary`) and the output it wrote into work/ort_output.f32.
Timed read_ort_summary(const nlohmann::json& summary, const std::filesystem::path& work) {
  Timed timed;
  timed.times_ms = summary.value("times_ms", std::vector<double>{});
  timed.cpu_ms = summary.value("cpu_ms", std::vector<double>{});
  timed.rss_before_mb = summary.value("rss_before_mb", 0.0);
  timed.peak_rss_mb = summary.value("peak_rss_mb", 0.0);
  const std::filesystem::path output_file = work / "ort_output.f32";
  std::ifstream output(output_file, std::ios::binary);
  timed.output.resize(std::filesystem::file_size(output_file) / sizeof(float));
  output.read(reinterpret_cast<char*>(timed.output.data()), static_cast<std::streamsize>(timed.output.size() * sizeof(float)));
  return timed;
}

// ONNX Runtime's run, through node and ort_run.js: --warmup then --runs runs.
Timed run_ort(const Options& options, const std::filesystem::path& work, const std::string& input_name,
              const asc::Shape& input_shape) {
  const std::string command = ort_command(options, work, input_name, input_shape, std::to_string(options.runs));
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) throw asc::Error(asc::ErrorCode::ExecutionFailed, "cannot start " + options.node);
  std::string text;
  char chunk[4096];
  while (const std::size_t read = std::fread(chunk, 1, sizeof chunk, pipe.get())) text.append(chunk, read);
  if (pclose(pipe.release()) != 0 || text.empty()) throw ort_failed(options, command);
  return read_ort_summary(nlohmann::json::parse(text), work);
}

// ONNX Runtime kept running (ort_run.js in serve mode, warmed up): run() times one run when
// asked, so runs of it and of our backends can alternate. Between its runs the process is
// stopped (SIGSTOP): ONNX Runtime's intra-op threads keep spinning after a run (one used 75-100 %
// of a core all through our MobileNetV2 runs, which then shared the other core), and a stopped
// process takes no CPU from ours while its threads resume as they were.
class OrtServer {
 public:
  OrtServer(const Options& options, const std::filesystem::path& work, const std::string& input_name,
            const asc::Shape& input_shape)
      : options_(options),
        work_(work),
        command_(ort_command(options, work, input_name, input_shape, "serve")) {
    std::signal(SIGPIPE, SIG_IGN);  // a server that died fails the next read instead of killing us
    int request[2], reply[2];
    if (pipe(request) != 0 || pipe(reply) != 0) throw asc::Error(asc::ErrorCode::ExecutionFailed, "cannot make pipes");
    pid_ = fork();
    if (pid_ < 0) throw asc::Error(asc::ErrorCode::ExecutionFailed, "cannot start " + options.node);
    if (pid_ == 0) {
      dup2(request[0], STDIN_FILENO);
      dup2(reply[1], STDOUT_FILENO);
      for (const int fd : {request[0], request[1], reply[0], reply[1]}) close(fd);
      execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(request[0]);
    close(reply[1]);
    to_ = fdopen(request[1], "w");
    from_ = fdopen(reply[0], "r");
    read_line();  // "ready": loaded and warmed up
    pause();
  }
  OrtServer(const OrtServer&) = delete;
  OrtServer& operator=(const OrtServer&) = delete;
  ~OrtServer() {
    if (pid_ > 0) {
      kill(pid_, SIGCONT);
      std::fclose(to_);  // the end of stdin ends the server
      std::fclose(from_);
      waitpid(pid_, nullptr, 0);
    }
  }

  // One timed run: {wall ms, CPU ms}.
  std::pair<double, double> run() {
    kill(pid_, SIGCONT);
    std::fputs("run\n", to_);
    std::fflush(to_);
    const nlohmann::json reply = nlohmann::json::parse(read_line());
    pause();
    return {reply.at("time_ms").get<double>(), reply.at("cpu_ms").get<double>()};
  }

  // Stops the server: its output and memory figures (no per-run lists).
  Timed finish() {
    kill(pid_, SIGCONT);
    std::fputs("quit\n", to_);
    std::fclose(to_);
    const std::string summary = read_line();
    std::fclose(from_);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw ort_failed(options_, command_);
    return read_ort_summary(nlohmann::json::parse(summary), work_);
  }

 private:
  // Stops the server and waits until it is stopped.
  void pause() {
    kill(pid_, SIGSTOP);
    int status = 0;
    waitpid(pid_, &status, WUNTRACED);
  }

  std::string read_line() {
    std::string line;
    char chunk[4096];
    while (std::fgets(chunk, sizeof chunk, from_) != nullptr) {
      line += chunk;
      if (line.back() == '\n') return line;
    }
    throw ort_failed(options_, command_);
  }

  const Options& options_;
  std::filesystem::path work_;
  std::string command_;
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
};

// One timed run of ours: {wall ms, CPU ms}; `outputs` receives its outputs.
std::pair<double, double> time_ours(asc::Executable& executable, const asc::TensorMap& inputs,
                                    const asc::RunOptions& run_options, asc::TensorMap& outputs) {
  const double cpu_start = process_cpu_ms();
  const Clock::time_point start = Clock::now();
  outputs = executable.execute(inputs, run_options);
  return {std::chrono::duration<double, std::milli>(Clock::now() - start).count(), process_cpu_ms() - cpu_start};
}

// The first output of `executable`'s run, as float32 values.
std::vector<float> first_output(const asc::Executable& executable, const asc::TensorMap& outputs) {
  const asc::Tensor first = outputs.at(executable.output_infos().front().name).contiguous();
  if (first.dtype() != asc::DType::Float32) throw asc::Error(asc::ErrorCode::InputMismatch, "bench_ort_compare compares float32 outputs");
  const auto values = first.span<float>();
  return {values.begin(), values.end()};
}

Timed run_ours(asc::Executable& executable, const asc::TensorMap& inputs, const Options& options) {
  asc::RunOptions run_options;
  run_options.threads = options.threads;
  for (int i = 0; i < options.warmup; ++i) executable.execute(inputs, run_options);
  Timed timed;
  asc::TensorMap outputs;
  for (int i = 0; i < options.runs; ++i) {
    const auto [wall_ms, cpu_ms] = time_ours(executable, inputs, run_options, outputs);
    timed.times_ms.push_back(wall_ms);
    timed.cpu_ms.push_back(cpu_ms);
  }
  timed.output = first_output(executable, outputs);
  return timed;
}

// One round with runtimes alternating: ONNX Runtime, then each backend, --runs times (after
// everyone's --warmup runs), each time one untimed and one timed run, so that every timed run
// finds the caches holding its own runtime's weights, as in a loop of inferences (ResNet-50's
// are about the size of this VM's L3). Returns ONNX Runtime's timings first, then each backend's.
std::vector<Timed> run_interleaved(const std::vector<std::unique_ptr<asc::Executable>>& executables,
                                   const asc::TensorMap& inputs, const Options& options,
                                   const std::filesystem::path& work, const std::string& input_name,
                                   const asc::Shape& input_shape) {
  OrtServer ort(options, work, input_name, input_shape);
  asc::RunOptions run_options;
  run_options.threads = options.threads;
  for (const auto& executable : executables)
    for (int i = 0; i < options.warmup; ++i) executable->execute(inputs, run_options);
  std::vector<Timed> timed(executables.size() + 1);
  std::vector<asc::TensorMap> outputs(executables.size());
  for (int i = 0; i < options.runs; ++i) {
    const auto [ort_ms, ort_cpu_ms] = ort.run();
    timed[0].times_ms.push_back(ort_ms);
    timed[0].cpu_ms.push_back(ort_cpu_ms);
    for (std::size_t b = 0; b < executables.size(); ++b) {
      executables[b]->execute(inputs, run_options);
      const auto [wall_ms, cpu_ms] = time_ours(*executables[b], inputs, run_options, outputs[b]);
      timed[b + 1].times_ms.push_back(wall_ms);
      timed[b + 1].cpu_ms.push_back(cpu_ms);
    }
  }
  Timed summary = ort.finish();
  summary.times_ms = std::move(timed[0].times_ms);
  summary.cpu_ms = std::move(timed[0].cpu_ms);
  timed[0] = std::move(summary);
  for (std::size_t b = 0; b < executables.size(); ++b) timed[b + 1].output = first_output(*executables[b], outputs[b]);
  return timed;
}

// Cosine similarity and largest absolute difference of two outputs.
std::string agreement(const std::vector<float>& ours, const std::vector<float>& ort) {
  if (ours.size() != ort.size()) return "output sizes differ (" + std::to_string(ours.size()) + " vs " + std::to_string(ort.size()) + ")";
  double dot = 0, ours_norm = 0, ort_norm = 0, max_diff = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    dot += static_cast<double>(ours[i]) * ort[i];
    ours_norm += static_cast<double>(ours[i]) * ours[i];
    ort_norm += static_cast<double>(ort[i]) * ort[i];
    max_diff = std::max(max_diff, std::abs(static_cast<double>(ours[i]) - ort[i]));
  }
  char text[128];
  std::snprintf(text, sizeof text, "cosine %.6f, max |diff| %.3g", dot / std::sqrt(ours_norm * ort_norm), max_diff);
  return text;
}

int run(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::printf("%s", kUsage);
      return 0;
    }
  const Options options = parse_options(argc, argv);
  const double rss_before_mb = current_rss_mb();

  asc::host::PluginHost host(asc::host::plugin_search_path({}));
  host.load_all();
  host.require({"parser_onnx", "ops_builtin"});
  if (options.fusion) host.require({"fusion"});
  const asc::Registry& registry = host.registry();
  asc::ParseOptions parse_options;
  if (!options.input_shape.empty()) parse_options.input_shapes = asc::parse_input_shape_spec(options.input_shape);
  const asc::Parser* parser = registry.parser_for(options.model);
  if (parser == nullptr) throw asc::Error(asc::ErrorCode::FrameworkUnsupported, "no parser for " + options.model.string());
  asc::Graph graph = parser->parse(options.model, parse_options);
  if (options.fusion)
    for (const auto& pass : registry.passes()) pass.item->run(graph, asc::PassContext{registry.ops()});
  if (graph.inputs.size() != 1)
    throw asc::Error(asc::ErrorCode::UsageError, "bench_ort_compare runs models with one input; " +
                                                          options.model.string() + " has " + std::to_string(graph.inputs.size()));
  const asc::ValueInfo& input_info = *graph.value_info(graph.inputs.front());
  const asc::Shape input_shape = input_info.static_shape();
  if (input_info.dtype != asc::DType::Float32) throw asc::Error(asc::ErrorCode::InputMismatch, "bench_ort_compare feeds a float32 input");

  asc::Tensor input(asc::DType::Float32, input_shape);
  std::mt19937 generator(0);
  std::normal_distribution<float> normal;
  for (float& value : input.span<float>()) value = normal(generator);
  const std::filesystem::path work = std::filesystem::temp_directory_path() / ("bench_ort_compare." + std::to_string(getpid()));
  std::filesystem::create_directories(work);
  std::ofstream(work / "input.f32", std::ios::binary).write(reinterpret_cast<const char*>(input.data<float>()), static_cast<std::streamsize>(input.nbytes()));
  const asc::TensorMap inputs{{input_info.name, input}};

  std::vector<std::unique_ptr<asc::Executable>> executables;
  for (const std::string& name : options.backends) {
    const asc::Backend* backend = registry.backend(name);
    if (backend == nullptr) throw asc::Error(asc::ErrorCode::UsageError, "no backend '" + name + "' among the loaded plugins");
    asc::BackendOptions backend_options;
    if (name == "npusim") backend_options = {{"soc_version", options.soc}, {"precision_mode", options.precision}};
    executables.push_back(backend->compile(graph, registry.ops(), backend_options));
  }

  std::printf("model %s, input %s %s, %d threads, %d warm-up + %d timed runs per runtime and round, fusion %s\n",
              options.model.filename().c_str(), input_info.name.c_str(), asc::shape_to_string(input_shape).c_str(),
              options.threads, options.warmup, options.runs, options.fusion ? "on" : "off");
  std::map<std::string, std::vector<double>> ratios, cpu_ratios;
  double ort_peak_mb = 0, ort_before_mb = 0;
  try {
    for (int round = 1; round <= options.rounds; ++round) {
      std::vector<Timed> timed;
      if (options.interleave) {
        timed = run_interleaved(executables, inputs, options, work, input_info.name, input_shape);
      } else {
        timed.push_back(run_ort(options, work, input_info.name, input_shape));
        for (const auto& executable : executables) timed.push_back(run_ours(*executable, inputs, options));
      }
      const Timed& ort = timed.front();
      const double ort_ms = median(ort.times_ms);
      const double ort_cpu_ms = median(ort.cpu_ms);
      std::printf("round %d: onnxruntime %8.2f ms (cpu %.2f ms)\n", round, ort_ms, ort_cpu_ms);
      ort_peak_mb = std::max(ort_peak_mb, ort.peak_rss_mb);
      ort_before_mb = ort.rss_before_mb;
      for (std::size_t b = 0; b < executables.size(); ++b) {
        const Timed& ours = timed[b + 1];
        const double ours_ms = median(ours.times_ms);
        ratios[options.backends[b]].push_back(ours_ms / ort_ms);
        const double ours_cpu_ms = median(ours.cpu_ms);
        cpu_ratios[options.backends[b]].push_back(ours_cpu_ms / ort_cpu_ms);
        std::printf("round %d: %-11s %8.2f ms (cpu %.2f ms)  ratio %.2f (cpu %.2f)  %s vs onnxruntime\n", round,
                    options.backends[b].c_str(), ours_ms, ours_cpu_ms, ours_ms / ort_ms, ours_cpu_ms / ort_cpu_ms,
                    agreement(ours.output, ort.output).c_str());
        std::fflush(stdout);
      }
    }
  } catch (...) {
    std::filesystem::remove_all(work);
    throw;
  }
  std::filesystem::remove_all(work);
  for (const std::string& name : options.backends)
    std::printf("%s/onnxruntime median ratio over %d round(s): %.2f (cpu %.2f)\n", name.c_str(), options.rounds,
                median(ratios[name]), median(cpu_ratios[name]));
  // Each process's peak, and what it held before loading the model (plugins or node + the
  // onnxruntime module): run one backend per invocation (--backends) for that backend's own peak.
  std::string ours;
  for (const std::string& name : options.backends) ours += (ours.empty() ? "" : "+") + name;
  std::printf("peak RSS: %s %.0f MiB (%.0f MiB before loading the model), onnxruntime %.0f MiB (%.0f MiB before "
              "its session)\n",
              ours.c_str(), peak_rss_mb(), rss_before_mb, ort_peak_mb, ort_before_mb);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  asc::host::retain_freed_memory();
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_ort_compare: %s\n", e.what());
    return 1;
  }
}
