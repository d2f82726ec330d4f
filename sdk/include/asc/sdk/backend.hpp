// Backend plugins: compile a graph into an executable, load a saved one, execute it
// synchronously or on a stream, and emit profiling events.
#pragma once

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

// Free-form options ("soc_version" -> "Ascend310P3", "precision_mode" -> "force_fp16", ...);
// each backend documents the keys it reads and rejects values it cannot honour.
using BackendOptions = std::map<std::string, std::string>;

struct RunOptions {
  ProfileSink* profile_sink = nullptr;          // borrowed; events are recorded when set
  std::filesystem::path dump_dir;               // when set, every task's outputs are dumped here
  int threads = 1;
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
