// Helpers for the host tests: scratch directories, files, subprocesses, and error checks.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "asc/sdk/error.hpp"

namespace asc::host::testing {

// A fresh directory under the system temp dir, removed when the object goes.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

void write_text(const std::filesystem::path& file, const std::string& text);
std::string read_text(const std::filesystem::path& file);

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs `command` through /bin/sh, capturing stdout and stderr in `scratch`.
ProcessResult run_process(const std::string& command, const ScratchDir& scratch);

// Runs `action`, which must throw asc::Error with `code`; returns its message for further checks.
std::string error_message(const std::function<void()>& action, ErrorCode code);

}  // namespace asc::host::testing
