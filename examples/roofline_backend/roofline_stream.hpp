// The roofline backend's stream: a host thread running work in order (asc::HostStream) plus the
// stream's simulated device clock, so that successive runs follow each other on one timeline as
// on a device: ais_bench's loop and msprof's profile see inference after inference, with task ids
// counting up per stream as the runtime's do.
//
// One run on the stream is three pieces back to back: the inputs' copy to the device over the
// host link (pcie_bandwidth_gbs), the model's tasks, the outputs' copy back; the copies are
// msprof's MEMCPY_ASYNC tasks (asc/sdk/msprof/memcpy_task.hpp). Each stream is a device timeline
// of its own (streams do not contend for the cores; the NPU simulator models that).
#pragma once

#include <asc/sdk/backend.hpp>
#include <memory>

#include "soc_file.hpp"

namespace roofline {

class RooflineStream : public asc::HostStream {
 public:
  explicit RooflineStream(int id) : id_(id) {}

  // Enqueues the copy in, executable.execute() and the copy out. The events of the run reach
  // options.profile_sink shifted to the run's device time and tagged with this stream's id.
  // `executable` and `soc` are borrowed until synchronize() returns.
  void enqueue_run(asc::Executable& executable, const SocFacts& soc, asc::TensorMap inputs,
                   asc::TensorMap* outputs, asc::RunOptions options);

 private:
  // The device clock, touched only by the stream's worker thread, one piece of work at a time;
  // shared with the enqueued work, which may outlive this object's members while HostStream's
  // destructor stops the worker.
  struct Timeline {
    double clock_us = 0;
    int next_task_id = 0;
  };
  int id_;
  std::shared_ptr<Timeline> timeline_ = std::make_shared<Timeline>();
};

}  // namespace roofline
