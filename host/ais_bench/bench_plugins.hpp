// The plugins ais_bench runs an .om with: no ONNX parser, only what executing a compiled model
// needs — ops_builtin (kernels), fusion (the fused operators the compiler may have emitted),
// backend_npusim (the simulator and the npusim.bench stage) — plus every plugin in the custom
// operator directories the .om records, which come first in the search path as under atc.
#pragma once

#include <asc/host/plugin_host.hpp>
#include <filesystem>
#include <memory>
#include <vector>

namespace asc::ais_bench {

// EE6006 when a plugin is missing (listing where it looked), EE6006 naming the directory when a
// recorded custom operator directory is gone, EE6001 when a custom operator library fails to load.
std::unique_ptr<host::PluginHost> load_bench_plugins(const std::vector<std::filesystem::path>& op_lib_dirs);

}  // namespace asc::ais_bench
