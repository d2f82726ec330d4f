// The custom operator plugin directories an .om was compiled with (atc --op_lib_path, recorded
// as CompileOptions::op_lib_paths), read before any plugin is loaded so that the plugins can be.
// Only the header and the payload's options field are decoded, not the graph or its weights.
#pragma once

#include <filesystem>
#include <vector>

namespace asc::ais_bench {

// EE4001 for a missing file, EE4004 for a corrupt one (bad magic, version, length or checksum,
// or options that do not parse), both naming the file.
std::vector<std::filesystem::path> om_op_lib_dirs(const std::filesystem::path& om);

}  // namespace asc::ais_bench
