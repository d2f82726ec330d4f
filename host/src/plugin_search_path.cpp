#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string_view>

#include <boost/dll/runtime_symbol_info.hpp>

#include "asc/host/plugin_host.hpp"
#include "asc/sdk/log.hpp"

namespace asc::host {
namespace fs = std::filesystem;
namespace {

std::vector<fs::path> environment_dirs() {
  std::vector<fs::path> dirs;
  const char* value = std::getenv("ASC_PLUGIN_PATH");
  if (value == nullptr) return dirs;
  std::string_view rest = value;
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const auto item = rest.substr(0, colon);
    if (!item.empty()) dirs.emplace_back(item);
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return dirs;
}

// From the build tree this is build/lib/asc/plugins, which mirrors the installed layout.
std::optional<fs::path> beside_executable_dir() {
  boost::dll::fs::error_code error;
  const auto executable = boost::dll::program_location(error);
  if (error) {
    log_debug("cannot locate the running executable: " + error.message());
    return std::nullopt;
  }
  return fs::path(executable.string()).parent_path() / ".." / "lib" / "asc" / "plugins";
}

// One spelling per directory ("a/", "a/../a" and "a" are the same entry).
fs::path comparable(const fs::path& dir) {
  fs::path normal = dir.lexically_normal();
  if (!normal.has_filename() && normal.has_relative_path()) normal = normal.parent_path();
  std::error_code error;
  auto canonical = fs::weakly_canonical(normal, error);
  return error ? normal : canonical;
}

}  // namespace

std::vector<fs::path> plugin_search_path(const std::vector<fs::path>& command_line_dirs) {
  std::vector<fs::path> candidates = command_line_dirs;
  for (auto& dir : environment_dirs()) candidates.push_back(std::move(dir));
  if (auto dir = beside_executable_dir()) candidates.push_back(std::move(*dir));
  candidates.emplace_back(ASC_INSTALLED_PLUGIN_DIR);

  std::vector<fs::path> dirs;
  for (const auto& candidate : candidates) {
    auto dir = comparable(candidate);
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(std::move(dir));
  }
  return dirs;
}

}  // namespace asc::host
