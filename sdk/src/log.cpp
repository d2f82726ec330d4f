#include "asc/sdk/log.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace asc {
namespace {

constexpr std::array<std::string_view, 5> kLevelNames{"debug", "info", "warning", "error", "null"};
constexpr std::array<std::string_view, 5> kLevelTags{"DEBUG", "INFO", "WARNING", "ERROR", "NULL"};
constexpr int kBarWidth = 30;
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

LogLevel initial_level() {
  const char* env = std::getenv("ASC_LOG_LEVEL");
  if (env == nullptr) return LogLevel::Warning;
  return parse_log_level(env).value_or(LogLevel::Warning);
}

std::atomic<LogLevel>& level_storage() {
  static std::atomic<LogLevel> level{initial_level()};
  return level;
}

// Serialises everything written to stderr here, so log lines and progress bars do not interleave.
std::mutex& stderr_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

void set_log_level(LogLevel level) { level_storage().store(level); }

LogLevel log_level() { return level_storage().load(); }

std::optional<LogLevel> parse_log_level(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::size_t i = 0; i < kLevelNames.size(); ++i)
    if (kLevelNames[i] == lower) return static_cast<LogLevel>(i);
  return std::nullopt;
}

void log(LogLevel level, std::string_view message) {
  if (level == LogLevel::Null || level < log_level()) return;
  const std::string_view tag = kLevelTags[static_cast<std::size_t>(level)];
  std::lock_guard lock(stderr_mutex());
  std::fprintf(stderr, "[%.*s] %.*s\n", static_cast<int>(tag.size()), tag.data(), static_cast<int>(message.size()),
               message.data());
  std::fflush(stderr);
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string label, std::int64_t total, bool enabled)
    : label_(std::move(label)), total_(std::max<std::int64_t>(total, 0)), enabled_(enabled) {}

Progress::~Progress() { draw(true); }

void Progress::advance(std::int64_t steps) {
  done_ = std::min(done_ + steps, total_);
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < kRedrawInterval && done_ < total_) return;
  last_draw_ = now;
  draw(false);
}

void Progress::draw(bool final) {
  if (!enabled_) return;
  std::lock_guard lock(stderr_mutex());
  if (final) {
    std::fputs("\r\033[K", stderr);  // erase the bar
  } else {
    const double fraction = total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_) : 1.0;
    const int filled = static_cast<int>(fraction * kBarWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(kBarWidth - filled), '.');
    std::fprintf(stderr, "\r\033[K%s [%s] %3d%% (%lld/%lld)", label_.c_str(), bar.c_str(),
                 static_cast<int>(fraction * 100), static_cast<long long>(done_), static_cast<long long>(total_));
  }
  std::fflush(stderr);
}

}  // namespace asc
