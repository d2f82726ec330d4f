#include "launch.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <asc/sdk/error.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace asc::msprof {
namespace {

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::filesystem::path find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) {
    if (!is_executable_file(program))
      throw Error(ErrorCode::FileNotFound, "application '" + program + "' is not an executable file");
    return program;
  }
  const char* path = std::getenv("PATH");
  std::string directories = path != nullptr ? path : "";
  std::size_t begin = 0;
  while (begin <= directories.size()) {
    const std::size_t end = std::min(directories.find(':', begin), directories.size());
    const std::filesystem::path dir = end > begin ? directories.substr(begin, end - begin) : ".";
    if (is_executable_file(dir / program)) return dir / program;
    begin = end + 1;
  }
  throw Error(ErrorCode::FileNotFound, "application '" + program + "' is not on $PATH; give its path");
}

int run_with_environment(const std::filesystem::path& program, const std::vector<std::string>& application,
                         const std::string& variable, const std::string& value) {
  std::vector<char*> argv;
  for (const std::string& argument : application) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  std::cout << std::flush;
  std::cerr << std::flush;
  const pid_t child = ::fork();
  if (child < 0) throw Error(ErrorCode::Internal, std::string("cannot start the application: ") + std::strerror(errno));
  if (child == 0) {
    ::setenv(variable.c_str(), value.c_str(), 1);
    ::execv(program.c_str(), argv.data());
    const std::string message = "[ERROR] msprof: cannot run " + program.string() + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message.data(), message.size());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR) throw Error(ErrorCode::Internal, std::string("waiting for the application: ") + std::strerror(errno));
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace asc::msprof
