#include "bench_plugins.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>
#include <algorithm>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

namespace asc::ais_bench {
namespace {

// The simulator comes first: it reads the .om for the custom operator plugins. As under atc, the
// built-in operator libraries load before them (a plugin re-registering a built-in operator is
// refused, not the library).
const std::vector<std::string> kModelReader = {"backend_npusim"};
const std::vector<std::string> kPlugins = {"ais_bench_runner"};

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

// The custom operator directories the model records, asked of the backend that reads its format.
std::vector<std::filesystem::path> op_lib_dirs(const Registry& registry, const std::filesystem::path& model) {
  for (const auto& entry : registry.backends())
    if (entry.item->reads_model_file(model)) return entry.item->describe_model_file(model).op_lib_dirs;
  return {};  // the ais_bench.run stage reports a file no backend reads
}

}  // namespace

std::unique_ptr<host::PluginHost> load_bench_plugins(const std::filesystem::path& model, const std::string& backend) {
  auto plugins = std::make_unique<host::PluginHost>(host::plugin_search_path({}));
  plugins->load_named(kModelReader);
  plugins->load_named(std::vector<std::string>(std::begin(host::kBuiltinOperatorPlugins), std::end(host::kBuiltinOperatorPlugins)));
  for (const std::filesystem::path& dir : op_lib_dirs(plugins->registry(), model)) load_custom_operators(*plugins, dir);
  plugins->load_named(kPlugins);
  if (plugins->registry().backend(backend) == nullptr) plugins->load_all();
  return plugins;
}

}  // namespace asc::ais_bench
