// Backend support (since SDK 0.3): file names derived from graph names, and output directories.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace asc {

// `name` usable as one file-name component: '/', '\\' and ':' become '_'; an empty name
// becomes "_".
std::string file_stem_for(std::string_view name);

// Creates `dir` and its parents if needed; throws EE4003 naming it (as `what`) on failure.
void ensure_directory(const std::filesystem::path& dir, std::string_view what);

}  // namespace asc
