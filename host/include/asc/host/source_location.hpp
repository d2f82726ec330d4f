// A position in a configuration file, as users see it (1-based line and column).
#pragma once

#include <filesystem>
#include <string>

namespace asc::host {

struct SourceLocation {
  std::filesystem::path file;
  int line = 0;  // 0: position unknown, only the file is cited
  int column = 0;

  // "file:line:column" (or "file" when the position is unknown).
  std::string to_string() const;
  // "file:line", for short references such as "stage 'run' (pipe.yaml:12) failed".
  std::string file_and_line() const;
};

// "file:line:column: message", the form every configuration error takes.
std::string located(const SourceLocation& where, const std::string& message);

}  // namespace asc::host
