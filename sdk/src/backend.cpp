#include "asc/sdk/backend.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "asc/sdk/error.hpp"

namespace asc {

struct HostStream::State {
  std::mutex mutex;
  std::condition_variable work_available;
  std::condition_variable idle;
  std::deque<std::function<void()>> queue;
  bool running = false;  // the worker is executing an item taken off the queue
  bool stopping = false;
  std::exception_ptr first_error;
  std::thread worker;

  void run() {
    std::unique_lock lock(mutex);
    while (true) {
      work_available.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty()) return;  // stopping, and everything enqueued has run
      std::function<void()> work = std::move(queue.front());
      queue.pop_front();
      running = true;
      lock.unlock();
      std::exception_ptr error;
      try {
        work();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      running = false;
      if (error && !first_error) first_error = error;
      if (queue.empty()) idle.notify_all();
    }
  }
};

HostStream::HostStream() : state_(std::make_unique<State>()) {
  state_->worker = std::thread([state = state_.get()] { state->run(); });
}

HostStream::~HostStream() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->work_available.notify_one();
  state_->worker.join();
}

void HostStream::enqueue(std::function<void()> work) {
  {
    std::lock_guard lock(state_->mutex);
    state_->queue.push_back(std::move(work));
  }
  state_->work_available.notify_one();
}

void HostStream::synchronize() {
  std::unique_lock lock(state_->mutex);
  state_->idle.wait(lock, [&] { return state_->queue.empty() && !state_->running; });
  if (state_->first_error) {
    std::exception_ptr error = std::exchange(state_->first_error, nullptr);
    std::rethrow_exception(error);
  }
}

void Executable::execute_async(Stream& stream, TensorMap inputs, TensorMap* outputs, RunOptions options) {
  if (outputs == nullptr) throw Error(ErrorCode::Internal, "execute_async: no output map given");
  auto* host = dynamic_cast<HostStream*>(&stream);
  if (host == nullptr) {  // a stream we cannot enqueue on: run now, in order by construction
    *outputs = execute(inputs, options);
    return;
  }
  host->enqueue([this, inputs = std::move(inputs), outputs, options = std::move(options)] {
    *outputs = execute(inputs, options);
  });
}

void Executable::save(const std::filesystem::path& path) const {
  throw Error(ErrorCode::Internal,
              "cannot save the executable to '" + path.string() + "': this backend has no file format");
}

std::unique_ptr<Executable> Backend::load(const std::filesystem::path& path, const OpRegistry& /*ops*/,
                                          const BackendOptions& /*options*/) const {
  throw Error(ErrorCode::Internal,
              "cannot load '" + path.string() + "': backend '" + name() + "' has no file format");
}

std::vector<InputProfile> Executable::input_profiles() const {
  InputProfile profile{"static", {}};
  for (const ValueInfo& info : input_infos()) {
    Shape& shape = profile.input_shapes[info.name];
    if (info.shape)
      for (const Dim& dim : *info.shape) shape.push_back(dim.is_static() ? dim.value : -1);
  }
  return {profile};
}

bool Backend::reads_model_file(const std::filesystem::path& /*path*/) const { return false; }

ModelFileInfo Backend::describe_model_file(const std::filesystem::path& path) const {
  throw Error(ErrorCode::Internal,
              "cannot read '" + path.string() + "': backend '" + name() + "' has no file format");
}

Graph Backend::read_model_graph(const std::filesystem::path& path, const OpRegistry& /*ops*/) const {
  throw Error(ErrorCode::Internal,
              "cannot read '" + path.string() + "': backend '" + name() + "' has no file format");
}

std::unique_ptr<Stream> Backend::create_stream() const { return std::make_unique<HostStream>(); }

}  // namespace asc
