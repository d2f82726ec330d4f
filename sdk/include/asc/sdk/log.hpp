// Logging (ATC's --log levels) and terminal progress for long work.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace asc {

enum class LogLevel : std::uint8_t { Debug, Info, Warning, Error, Null };

// Process-wide threshold; messages below it are dropped. Default Warning, or $ASC_LOG_LEVEL.
void set_log_level(LogLevel level);
LogLevel log_level();
// "debug", "info", "warning", "error", "null" (case-insensitive).
std::optional<LogLevel> parse_log_level(std::string_view text);
// Writes "[LEVEL] message" to stderr, thread-safe.
void log(LogLevel level, std::string_view message);
inline void log_debug(std::string_view m) { log(LogLevel::Debug, m); }
inline void log_info(std::string_view m) { log(LogLevel::Info, m); }
inline void log_warning(std::string_view m) { log(LogLevel::Warning, m); }
inline void log_error(std::string_view m) { log(LogLevel::Error, m); }

// True when stderr is a terminal (so progress bars make sense).
bool stderr_is_terminal();

// A one-line progress bar on stderr, redrawn at most 10 times a second, erased when done.
// Draws nothing when `enabled` is false (not a terminal, or a quiet run).
class Progress {
 public:
  Progress(std::string label, std::int64_t total, bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void advance(std::int64_t steps = 1);

 private:
  void draw(bool final);
  std::string label_;
  std::int64_t total_;
  std::int64_t done_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace asc
