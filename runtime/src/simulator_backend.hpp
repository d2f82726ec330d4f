// The simulator, reached only through the SDK: the plugins (operators, fusion, the npusim
// backend, and a model's custom operator plugins) loaded once per process with asc_host's
// PluginHost. The plugin directory is found from this library's own location, so that the
// installed tree (<prefix>/runtime/lib64/libascendcl.so, <prefix>/lib/asc/plugins) and the build
// tree (same layout) work wherever the user's program is. That directory comes first in the
// search path, then asc_host's usual ones ($ASC_PLUGIN_PATH, ...).
#pragma once

#include <filesystem>
#include <vector>

#include "asc/sdk/backend.hpp"
#include "asc/sdk/op_registry.hpp"

namespace asc::acl {

struct Simulator {
  const Backend* backend;
  const OpRegistry* ops;
};

// Loads the plugins on first use (they stay loaded), and each directory of `op_lib_dirs` once.
Simulator simulator(const std::vector<std::filesystem::path>& op_lib_dirs = {});

}  // namespace asc::acl
