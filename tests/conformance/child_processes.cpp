#include "child_processes.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <vector>

namespace asc::conformance {
namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  pid_t pid;
  int fd;  // read end of the child's result pipe
  std::size_t index;
  Clock::time_point started;
  std::string payload;
};

void write_all(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void run_child(int fd, std::size_t index, const ChildWork& work) {
  std::string payload;
  try {
    payload = work(index);
  } catch (const std::exception& e) {
    payload = std::string("uncaught exception: ") + e.what();
    write_all(fd, payload);
    ::_exit(3);
  } catch (...) {
    ::_exit(3);
  }
  write_all(fd, payload);
  // _exit: no destructors or atexit handlers of the parent's objects (plugins, registries) in the child.
  ::_exit(0);
}

Child start_child(std::size_t index, const ChildWork& work) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  // Buffered output would otherwise be written twice, once by each process.
  std::cout.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    run_child(fds[1], index, work);
  }
  ::close(fds[1]);
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  return Child{pid, fds[0], index, Clock::now(), {}};
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status))
    return "crashed with signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) +
           ")";
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended abnormally";
}

ChildReport reap(Child& child) {
  ::close(child.fd);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildReport report;
  report.finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (report.finished)
    report.payload = std::move(child.payload);
  else
    report.failure = describe_status(status) + (child.payload.empty() ? "" : ": " + child.payload);
  return report;
}

// Reads what is available (the pipe is non-blocking); true at end of file or on a read error.
bool drain(Child& child) {
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(child.fd, buffer, sizeof buffer);
    if (n > 0) {
      child.payload.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return true;
    if (errno == EINTR) continue;
    return errno != EAGAIN && errno != EWOULDBLOCK;
  }
}

}  // namespace

void run_in_children(std::size_t count, int jobs, std::chrono::milliseconds timeout, const ChildWork& work,
                     const ChildDone& done) {
  std::vector<Child> running;
  std::size_t next = 0;
  while (next < count || !running.empty()) {
    while (next < count && running.size() < static_cast<std::size_t>(std::max(jobs, 1)))
      running.push_back(start_child(next++, work));

    std::vector<pollfd> polls;
    for (const Child& child : running) polls.push_back({child.fd, POLLIN, 0});
    ::poll(polls.data(), polls.size(), 100);

    const Clock::time_point now = Clock::now();
    for (std::size_t i = running.size(); i-- > 0;) {
      Child& child = running[i];
      std::optional<ChildReport> report;
      if ((polls[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0 && drain(child)) {
        report = reap(child);
      } else if (now - child.started > timeout) {
        ::kill(child.pid, SIGKILL);
        reap(child);
        report = ChildReport{
            false, "",
            "timed out after " +
                std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) + " s"};
      }
      if (!report) continue;
      const std::size_t index = child.index;
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      done(index, std::move(*report));
    }
  }
}

}  // namespace asc::conformance
