#include "profiler.hpp"

#include "acl/acl_base.h"
#include "api_guard.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/backend/output_paths.hpp"
#include "asc/sdk/log.hpp"
#include "asc/sdk/msprof/profile_writer.hpp"
#include "device.hpp"

namespace asc::acl {
namespace {

// Waits for every stream's queued work without taking its failure (the stream's own
// synchronize still reports it).
void wait_for_streams() {
  for (const auto& stream : all_streams()) stream->wait_idle();
}

}  // namespace

void Profiler::start_from_environment() {
  std::optional<msprof::CollectionOptions> options;
  try {
    options = msprof::collection_from_environment();
  } catch (const Error& error) {
    fail(ACL_ERROR_INVALID_PROFILING_CONFIG, error.what());
  }
  if (!options) return;
  std::lock_guard lock(mutex_);
  collection_ = std::move(*options);
  from_environment_ = true;
  owner_ = nullptr;
  events_.clear();
  model_.reset();
  next_task_id_.clear();
}

void Profiler::finish() {
  bool collecting = false;
  {
    std::lock_guard lock(mutex_);
    collecting = collection_.has_value();
  }
  if (collecting) {
    wait_for_streams();
    std::lock_guard lock(mutex_);
    const std::filesystem::path written = write();
    log_info("libascendcl: wrote profile " + written.string());
  }
  std::lock_guard lock(mutex_);
  api_dir_.reset();
  from_environment_ = false;
}

void Profiler::init(const std::filesystem::path& result_dir) {
  std::lock_guard lock(mutex_);
  if (from_environment_)
    fail(ACL_ERROR_PROF_API_CONFLICT, "msprof is profiling this program already (PROFILER_SAMPLECONFIG is set): "
                                      "the aclprof* calls cannot start a second collection");
  if (api_dir_) fail(ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit was called already (aclprofFinalize first)");
  ensure_directory(result_dir, "profiling result directory");
  api_dir_ = result_dir;
}

void Profiler::finalize() {
  {
    std::lock_guard lock(mutex_);
    if (!api_dir_) fail(ACL_ERROR_PROF_NOT_RUN, "aclprofFinalize without aclprofInit before it");
  }
  // A collection still running is written, as if aclprofStop had been called.
  finish();
}

std::filesystem::path Profiler::result_dir() {
  std::lock_guard lock(mutex_);
  if (!api_dir_) fail(ACL_ERROR_PROF_NOT_RUN, "profiling is not initialised: call aclprofInit first");
  return *api_dir_;
}

void Profiler::start(const msprof::CollectionOptions& options, const void* owner) {
  std::lock_guard lock(mutex_);
  if (!api_dir_) fail(ACL_ERROR_PROF_NOT_RUN, "profiling is not initialised: call aclprofInit first");
  if (collection_) fail(ACL_ERROR_PROF_ALREADY_RUN, "a profiling collection is running already (aclprofStop first)");
  collection_ = options;
  owner_ = owner;
  events_.clear();
  model_.reset();
  next_task_id_.clear();
}

std::filesystem::path Profiler::stop(const void* owner) {
  {
    std::lock_guard lock(mutex_);
    if (!collection_ || from_environment_) fail(ACL_ERROR_PROF_NOT_RUN, "no collection is running (aclprofStart first)");
    if (owner != owner_)
      fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is not the configuration the running collection was started with");
  }
  wait_for_streams();  // the work queued before the stop belongs to the profile
  std::lock_guard lock(mutex_);
  if (!collection_ || owner != owner_) fail(ACL_ERROR_PROF_NOT_RUN, "the collection was stopped by another thread");
  return write();
}

bool Profiler::recording() {
  std::lock_guard lock(mutex_);
  return collection_.has_value();
}

void Profiler::record_copy(int stream_id, msprof::CopyDirection direction, std::int64_t bytes, double start_us,
                           double duration_us) {
  ProfileEvent event = msprof::host_copy_event(direction, bytes, start_us, duration_us);
  std::lock_guard lock(mutex_);
  if (collection_) add(stream_id, std::move(event));
}

void Profiler::record_execution(int stream_id, const std::vector<ProfileEvent>& tasks, double start_us,
                                const msprof::ProfiledModel& model) {
  std::lock_guard lock(mutex_);
  if (!collection_) return;
  if (!model_) model_ = model;
  for (ProfileEvent event : tasks) {
    event.start_us += start_us;
    add(stream_id, std::move(event));
  }
}

void Profiler::add(int stream_id, ProfileEvent event) {
  const auto index = static_cast<std::size_t>(stream_id);
  if (next_task_id_.size() <= index) next_task_id_.resize(index + 1, 0);
  event.stream_id = stream_id;
  event.task_id = next_task_id_[index]++;
  events_.push_back(std::move(event));
}

std::filesystem::path Profiler::write() {
  const msprof::CollectionOptions options = std::move(*collection_);
  std::vector<ProfileEvent> events = std::move(events_);
  const msprof::ProfiledModel model = model_.value_or(msprof::ProfiledModel{});
  model_.reset();
  collection_.reset();
  owner_ = nullptr;
  events_.clear();
  next_task_id_.clear();
  try {
    return msprof::write_msprof_output(options, events, the_device().description(), model);
  } catch (const Error& error) {
    fail(ACL_ERROR_PROFILING_FAILURE, error.what());
  }
}

Profiler& profiler() {
  static Profiler instance;
  return instance;
}

}  // namespace asc::acl
