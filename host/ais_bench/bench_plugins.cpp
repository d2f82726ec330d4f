#include "bench_plugins.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>
#include <string>
#include <system_error>

namespace asc::ais_bench {
namespace {

const std::vector<std::string> kPlugins = {"ops_builtin", "fusion", "backend_npusim"};

void load_custom_operators(host::PluginHost& plugins, const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error))
    throw Error(ErrorCode::PluginNotFound, "the model was compiled with custom operator plugins from " + dir.string() +
                                               " (atc --op_lib_path), which is not a directory here");
  std::vector<std::filesystem::path> libraries;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".so") libraries.push_back(entry.path());
  std::sort(libraries.begin(), libraries.end());
  for (const std::filesystem::path& library : libraries) {
    plugins.load_file(library);
    log_info("ais_bench: custom operator plugin loaded from " + library.string());
  }
}

}  // namespace

std::unique_ptr<host::PluginHost> load_bench_plugins(const std::vector<std::filesystem::path>& op_lib_dirs) {
  auto plugins = std::make_unique<host::PluginHost>(host::plugin_search_path(op_lib_dirs));
  for (const std::filesystem::path& dir : op_lib_dirs) load_custom_operators(*plugins, dir);
  plugins->load_named(kPlugins);
  return plugins;
}

}  // namespace asc::ais_bench
