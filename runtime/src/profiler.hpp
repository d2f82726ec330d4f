// Profiling the simulated device into msprof's PROF_* directory (acl_prof.h, and msprof's
// collection through PROFILER_SAMPLECONFIG).
//
// While a collection runs, every device task a stream executes is recorded on the simulated
// timeline: a copy over the host link as a MEMCPY_ASYNC task, each kernel of a model execution
// as its own task (the backend's profile event, moved to where the execution was placed), with
// the ACL stream's id and a task id counted per stream. Stopping the collection waits for the
// work queued so far and writes the tasks with the SDK's msprof writer.
//
// Two ways start a collection: the acl_prof.h calls (aclprofInit .. aclprofFinalize, one
// PROF_* per aclprofStart/aclprofStop pair), or msprof launching the program with
// PROFILER_SAMPLECONFIG set (aclInit starts it, aclFinalize writes it), as the CANN runtime
// does. They exclude each other (ACL_ERROR_PROF_API_CONFLICT).
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <vector>

#include "asc/sdk/msprof/collection_options.hpp"
#include "asc/sdk/msprof/info_json.hpp"
#include "asc/sdk/msprof/memcpy_task.hpp"
#include "asc/sdk/profiling.hpp"

namespace asc::acl {

class Profiler {
 public:
  // aclInit: starts msprof's collection when PROFILER_SAMPLECONFIG asks for one
  // (ACL_ERROR_INVALID_PROFILING_CONFIG when its value is malformed).
  void start_from_environment();
  // aclFinalize: writes what is being collected, whichever way it was started.
  void finish();

  // The acl_prof.h session: the directory aclprofInit named.
  void init(const std::filesystem::path& result_dir);
  void finalize();
  std::filesystem::path result_dir();

  // Starts collecting with `options` for the config handle `owner`.
  void start(const msprof::CollectionOptions& options, const void* owner);
  // Stops the collection `owner` started (waits for queued work) and writes it; returns PROF_*.
  std::filesystem::path stop(const void* owner);

  bool recording();
  void record_copy(int stream_id, msprof::CopyDirection direction, std::int64_t bytes, double start_us,
                   double duration_us);
  // The tasks of one execution of `model`, whose times start at 0, placed at `start_us`. The
  // first model executed in a collection names the profile (PROF_*/device_0/info.json.0).
  void record_execution(int stream_id, const std::vector<ProfileEvent>& tasks, double start_us,
                        const msprof::ProfiledModel& model);

 private:
  std::filesystem::path write();  // the collected tasks as PROF_*; ends the collection
  void add(int stream_id, ProfileEvent event);

  std::mutex mutex_;
  std::optional<std::filesystem::path> api_dir_;  // set between aclprofInit and aclprofFinalize
  bool from_environment_ = false;
  std::optional<msprof::CollectionOptions> collection_;
  const void* owner_ = nullptr;
  std::vector<ProfileEvent> events_;
  std::optional<msprof::ProfiledModel> model_;  // the first model executed in the collection
  std::vector<int> next_task_id_;  // per stream id
};

Profiler& profiler();

}  // namespace asc::acl
