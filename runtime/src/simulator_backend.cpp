#include "simulator_backend.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "acl/acl_base.h"
#include "api_guard.hpp"
#include "asc/host/plugin_host.hpp"

namespace asc::acl {
namespace {

const std::vector<std::string> kPlugins = {"ops_builtin", "fusion", "backend_npusim"};

std::mutex plugins_mutex;
// Loaded once and never unloaded: executables (the user's models, descriptions) may outlive
// aclFinalize and even static destruction at exit, and their code lives in the plugins.
host::PluginHost* plugins = nullptr;
std::set<std::filesystem::path> loaded_op_lib_dirs;

// <dir of libascendcl.so>/../../lib/asc/plugins.
std::filesystem::path plugins_beside_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&plugins_beside_library), &info) == 0 || info.dli_fname == nullptr) return {};
  return std::filesystem::path(info.dli_fname).parent_path() / ".." / ".." / "lib" / "asc" / "plugins";
}

void load_op_lib_dir(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error))
    fail(ACL_ERROR_OP_LOAD_FAILED, "the model was compiled with custom operator plugins from " + dir.string() +
                                       " (atc --op_lib_path), which is not a directory here");
  std::vector<std::filesystem::path> libraries;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".so") libraries.push_back(entry.path());
  std::sort(libraries.begin(), libraries.end());
  for (const auto& library : libraries) plugins->load_file(library);
}

}  // namespace

Simulator simulator(const std::vector<std::filesystem::path>& op_lib_dirs) {
  std::lock_guard lock(plugins_mutex);
  if (!plugins) {
    std::vector<std::filesystem::path> dirs;
    if (auto beside = plugins_beside_library(); !beside.empty()) dirs.push_back(beside);
    auto host = std::make_unique<host::PluginHost>(host::plugin_search_path(dirs));
    host->load_named(kPlugins);
    plugins = host.release();
  }
  for (const auto& dir : op_lib_dirs) {
    const auto normal = dir.lexically_normal();
    if (loaded_op_lib_dirs.count(normal) != 0) continue;
    load_op_lib_dir(normal);
    loaded_op_lib_dirs.insert(normal);
  }
  const Backend* backend = plugins->registry().backend("npusim");
  if (backend == nullptr) fail(ACL_ERROR_OP_LOAD_FAILED, "the npusim backend plugin registered no backend 'npusim'");
  return {backend, &plugins->registry().ops()};
}

}  // namespace asc::acl
