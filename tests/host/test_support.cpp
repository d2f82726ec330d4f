#include "test_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

namespace asc::host::testing {
namespace fs = std::filesystem;

ScratchDir::ScratchDir() {
  static std::atomic<int> counter{0};
  path_ = fs::temp_directory_path() /
          ("asc_host_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ProcessResult run_process(const std::string& command, const ScratchDir& scratch) {
  const auto out = scratch / "process.out";
  const auto err = scratch / "process.err";
  const int status = std::system((command + " >'" + out.string() + "' 2>'" + err.string() + "'").c_str());
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_text(out);
  result.err = read_text(err);
  return result;
}

std::string error_message(const std::function<void()>& action, ErrorCode code) {
  try {
    action();
  } catch (const Error& error) {
    CHECK_MESSAGE(error.code() == code, error.what());
    return error.what();
  }
  FAIL("expected " << error_code_id(code) << ", nothing was thrown");
  return "";
}

}  // namespace asc::host::testing
