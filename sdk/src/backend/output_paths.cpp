#include "asc/sdk/backend/output_paths.hpp"

#include "asc/sdk/error.hpp"
#include <system_error>

namespace asc {

std::string file_stem_for(std::string_view name) {
  if (name.empty()) return "_";
  std::string stem(name);
  for (char& c : stem)
    if (c == '/' || c == '\\' || c == ':') c = '_';
  return stem;
}

void ensure_directory(const std::filesystem::path& dir, std::string_view what) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw Error(ErrorCode::FileWriteFailed,
                "cannot create " + std::string(what) + " '" + dir.string() + "': " + error.message());
}

}  // namespace asc
