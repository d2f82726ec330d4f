// The common shape of the command-line tools' main(): run the tool, turn an error into a
// message on stderr and an exit status.
#pragma once

#include <exception>
#include <functional>
#include <string_view>

#include <asc/sdk/error.hpp>

namespace asc::host {

// Returns body()'s exit status. An asc::Error it throws is printed on stderr as `prefix` followed
// by the error's text (stdout is flushed first, so the two streams keep their order) and becomes
// exit_status(code); any other exception is reported the same way as an internal error (EE9001).
// SIGINT/SIGTERM/SIGHUP during body() remove the temporary files of atomic writes in progress.
// The coded error for an exception that is no asc::Error: EE3001 for std::bad_alloc (the host ran
// out of memory: not a bug, and the same code the NPU compiler gives for a model that does not fit),
// EE9001 (internal) naming the exception for anything else.
Error coded_error(const std::exception& unexpected);

int run_tool(std::string_view prefix, const std::function<int()>& body,
             const std::function<int(ErrorCode)>& exit_status = exit_code_for);

}  // namespace asc::host
