#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "asc/sdk/log.hpp"

TEST_CASE("log levels parse case-insensitively") {
  CHECK(asc::parse_log_level("debug") == asc::LogLevel::Debug);
  CHECK(asc::parse_log_level("INFO") == asc::LogLevel::Info);
  CHECK(asc::parse_log_level("Warning") == asc::LogLevel::Warning);
  CHECK(asc::parse_log_level("error") == asc::LogLevel::Error);
  CHECK(asc::parse_log_level("null") == asc::LogLevel::Null);
  CHECK_FALSE(asc::parse_log_level("verbose").has_value());
}

TEST_CASE("the threshold is process-wide and logging is thread-safe") {
  const asc::LogLevel saved = asc::log_level();
  asc::set_log_level(asc::LogLevel::Null);
  CHECK(asc::log_level() == asc::LogLevel::Null);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 100; ++i) asc::log_error("suppressed");
    });
  for (auto& thread : threads) thread.join();
  asc::set_log_level(saved);
}

TEST_CASE("a disabled progress bar accepts any number of steps") {
  asc::Progress progress("work", 10, false);
  for (int i = 0; i < 20; ++i) progress.advance();
}
