// Running the atc executable from tests, and the generated models (tests/atc/make_models.py).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace asc::atc::testing {

struct AtcRun {
  int exit_code = -1;
  std::vector<std::string> out_lines;  // stdout, line by line
  std::string err;                     // stderr (logs)
};

// Runs `atc ARGS...` in `cwd` (arguments are single-quoted for the shell).
AtcRun run_atc(const std::vector<std::string>& arguments, const host::testing::ScratchDir& cwd);

// The generated model `name` (tiny.onnx, resnet50.onnx, mobilenet_v2.onnx, yolov5.onnx);
// the first call generates them all.
std::filesystem::path model(const std::string& name);

// `atc --mode=1` on `om`, parsed.
nlohmann::json om_json(const std::filesystem::path& om, const host::testing::ScratchDir& cwd);

inline constexpr const char* kStartLine = "ATC start working now, please wait for a moment.";
inline constexpr const char* kFailedLine =
    "ATC run failed, Please check the detail log, Try 'atc --help' for more information";

}  // namespace asc::atc::testing
