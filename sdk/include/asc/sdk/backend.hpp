// Backend plugins: compile a graph into an executable, load a saved one, execute it
// synchronously or on a stream, and emit profiling events.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "asc/sdk/graph.hpp"
#include "asc/sdk/op_registry.hpp"
#include "asc/sdk/profiling.hpp"
#include "asc/sdk/tensor.hpp"

namespace asc {

using TensorMap = std::map<std::string, Tensor>;

// One static-shape instance an executable was compiled for: the only one of a static model, one
// per batch size / image size / dims of a dynamic one (ATC's --dynamic_batch_size and friends).
struct InputProfile {
  std::string label;                          // "static", "batch=4", "image_size=320x320", "dims=1,224"
  std::map<std::string, Shape> input_shapes;  // every graph input, static
};

// The device an executable runs on, as profiles and runtimes describe it. A host backend leaves
// the counts at zero.
struct DeviceInfo {
  std::string soc_version;            // "Ascend310P3"
  int ai_core_count = 0;              // cube-capable cores (msprof's AI Core ids)
  int vector_core_count = 0;          // independent vector cores (0 on coupled SoCs)
  bool split_vector_cores = false;    // vector cores are separate from the AI cores (910B)
  double clock_mhz = 0;
  std::int64_t memory_bytes = 0;      // device memory (HBM/DDR) capacity
  double host_link_gbs = 0;           // host<->device bandwidth (PCIe), GB/s
  // Since SDK 0.4: how far a simulated device's times are from real cards', as tools print it
  // next to simulated times, e.g. "calibration MAE 12.3 % over 8 published points (hold-out
  // 17.0 % over 7)"; empty when the backend does not know.
  std::string timing_accuracy;
};

// What a tool must know about an offline model file before it can run it, read from the file's
// header and options only (no weights, no operators needed).
struct ModelFileInfo {
  std::string backend;                              // the backend that wrote it ("npusim")
  std::string soc_version;                          // the SoC it was compiled for
  std::string precision_mode;                       // ATC's --precision_mode it was compiled with
  std::vector<std::filesystem::path> op_lib_dirs;   // custom operator plugins it was compiled with
  std::vector<InputProfile> profiles;
};

// Free-form options ("soc_version" -> "Ascend310P3", "precision_mode" -> "force_fp16", ...);
// each backend documents the keys it reads and rejects values it cannot honour.
using BackendOptions = std::map<std::string, std::string>;

struct RunOptions {
  ProfileSink* profile_sink = nullptr;          // borrowed; events are recorded when set
  std::filesystem::path dump_dir;               // when set, every task's outputs are dumped here
  int threads = 1;
  // Since SDK 0.4: the caller wants the timing and profile only. A backend whose simulated time
  // does not depend on the data may skip the computation: profile events as in a full run, and
  // outputs of the right shapes and dtypes whose values are unspecified (npusim: zeros). Backends
  // that cannot separate the two ignore it and compute. Refused with dump_dir set (EE5007).
  bool timing_only = false;
};

// An in-order queue of work. Work enqueued on one stream runs in order; synchronize() waits
// for all of it and rethrows the first error.
class Stream {
 public:
  virtual ~Stream() = default;
  virtual void synchronize() = 0;
};

class Executable {
 public:
  virtual ~Executable() = default;
  virtual std::vector<ValueInfo> input_infos() const = 0;
  virtual std::vector<ValueInfo> output_infos() const = 0;
  // Runs to completion. Throws EE8002/EE8003 for missing or mismatched inputs, EE8001 when a
  // kernel fails (naming the node).
  virtual TensorMap execute(const TensorMap& inputs, const RunOptions& options) = 0;
  // Enqueues a run on `stream`; `outputs` (borrowed) is filled by the time synchronize() returns.
  // The default runs execute() on the stream's worker.
  virtual void execute_async(Stream& stream, TensorMap inputs, TensorMap* outputs, RunOptions options);
  // The input shapes it was compiled for. The default: one profile named "static" with the
  // shapes of input_infos() (a dynamic dimension is -1; an input of unknown rank has no dims).
  virtual std::vector<InputProfile> input_profiles() const;
  // The device it runs on. The default describes no device (a host backend).
  virtual DeviceInfo device() const { return {}; }
  // Writes the executable so that Backend::load() can read it back (atomically).
  // The default throws EE9001: not every backend has a file format.
  virtual void save(const std::filesystem::path& path) const;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // `ops` is borrowed for the lifetime of the returned executable.
  virtual std::unique_ptr<Executable> compile(const Graph& graph, const OpRegistry& ops,
                                              const BackendOptions& options) const = 0;
  // Loads a saved executable. The default throws EE9001.
  virtual std::unique_ptr<Executable> load(const std::filesystem::path& path, const OpRegistry& ops,
                                           const BackendOptions& options) const;
  // Offline model files. A backend with a file format answers for its own files (reading the
  // header only); the defaults answer false / throw EE9001, so a tool can ask every backend.
  virtual bool reads_model_file(const std::filesystem::path& path) const;
  // The file's facts (custom operator directories, SoC, profiles); EE4001/EE4002/EE4004 for a
  // missing, unreadable or corrupt file.
  virtual ModelFileInfo describe_model_file(const std::filesystem::path& path) const;
  // The file's graph as compiled (after fusion and precision; weights widened to their host
  // dtype), so that another backend can compile and run the same model.
  virtual Graph read_model_graph(const std::filesystem::path& path, const OpRegistry& ops) const;
  // A new stream. The default is a host thread that runs work in order.
  virtual std::unique_ptr<Stream> create_stream() const;
};

// The default stream: one worker thread running enqueued work in order.
class HostStream : public Stream {
 public:
  HostStream();
  ~HostStream() override;
  void enqueue(std::function<void()> work);
  void synchronize() override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace asc
