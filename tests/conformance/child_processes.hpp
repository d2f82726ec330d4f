// Runs work items in forked child processes, at most `jobs` at a time, so that an item that
// crashes (a kernel's segfault) or hangs costs that item only, not the whole run.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace asc::conformance {

struct ChildReport {
  bool finished = false;  // the child returned normally; `payload` is what the work returned
  std::string payload;
  std::string
      failure;  // otherwise: "crashed with signal 11 (Segmentation fault)", "timed out after 30 s", ...
};

using ChildWork = std::function<std::string(std::size_t index)>;
using ChildDone = std::function<void(std::size_t index, ChildReport report)>;

// Calls work(i) in a child for every i in [0, count) and done(i, report) in this process as each
// finishes (in completion order). The calling process must not be running other threads: only
// the forking thread survives in a child.
void run_in_children(std::size_t count, int jobs, std::chrono::milliseconds timeout, const ChildWork& work,
                     const ChildDone& done);

}  // namespace asc::conformance
