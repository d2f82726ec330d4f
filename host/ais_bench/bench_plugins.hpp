// The plugins ais_bench runs an .om with: no ONNX parser, only what executing a compiled model
// needs — ops_builtin (kernels), fusion (the fused operators the compiler may have emitted),
// backend_npusim (the simulator, which also reads .om files for every other backend) and
// ais_bench_runner (the ais_bench.run stage) — plus every plugin in the custom operator
// directories the .om records, and, for another --backend, every plugin on the search path.
#pragma once

#include <asc/host/plugin_host.hpp>
#include <filesystem>
#include <memory>
#include <string>

namespace asc::ais_bench {

// EE6006 when a plugin is missing (listing where it looked), EE6006 naming the directory when a
// recorded custom operator directory is gone, EE6001 when a custom operator library fails to
// load; the backend's errors for a model file it cannot read.
std::unique_ptr<host::PluginHost> load_bench_plugins(const std::filesystem::path& model, const std::string& backend);

}  // namespace asc::ais_bench
