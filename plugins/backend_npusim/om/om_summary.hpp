// What a tool needs to know about an .om before running it (Backend::describe_model_file): the
// SoC, the custom operator directories atc was given (--op_lib_path) and the input profiles, read
// without decoding the graph and its weights.
#pragma once

#include <asc/sdk/backend.hpp>
#include <filesystem>

namespace asc::npusim {

// True when the file starts with the .om magic (om_header.hpp); false for anything else,
// including a file that cannot be read.
bool is_om_file(const std::filesystem::path& path);

// EE4001/EE4002 for a missing or unreadable file; EE4004 naming the file for a bad header or
// payload.
ModelFileInfo describe_om(const std::filesystem::path& path);

}  // namespace asc::npusim
