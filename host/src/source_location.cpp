#include "asc/host/source_location.hpp"

namespace asc::host {

std::string SourceLocation::to_string() const {
  if (line <= 0) return file.string();
  return file.string() + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string SourceLocation::file_and_line() const {
  if (line <= 0) return file.string();
  return file.string() + ":" + std::to_string(line);
}

std::string located(const SourceLocation& where, const std::string& message) {
  return where.to_string() + ": " + message;
}

}  // namespace asc::host
