// The model file on the backend the user chose (ais_bench --backend): the backend that wrote the
// file loads it itself; any other backend compiles the graph that the writing backend reads out
// of the file, for the SoC the file was compiled for. So an out-of-tree backend runs the same .om
// as the simulator, through the SDK alone.
#pragma once

#include <asc/sdk/backend.hpp>
#include <asc/sdk/registry.hpp>
#include <filesystem>
#include <memory>
#include <string>

namespace asc::bench {

struct LoadedModel {
  std::unique_ptr<Executable> executable;
  ModelFileInfo info;  // the file's facts, from the backend that wrote it
};

// EE6006 when no loaded backend is named `backend` (listing the loaded ones), EE4004 when no
// loaded backend reads the file's format, plus the backends' own load and compile errors.
LoadedModel load_model(const Registry& registry, const std::string& backend, const std::filesystem::path& model,
                       BackendOptions options);

}  // namespace asc::bench
