// Shared by the validator tests: tensors from values, running commands, catching coded errors.
#pragma once

#include <asc/sdk/error.hpp>
#include <asc/sdk/tensor.hpp>
#include <asc/sdk/validator.hpp>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tensor_comparison.hpp"

namespace asc::test {

Tensor floats(Shape shape, std::vector<float> values);
Tensor doubles(Shape shape, std::vector<double> values);

validator::TensorComparison compare(const Tensor& golden, const Tensor& actual, double abs_tolerance = 1e-3,
                                    double rel_tolerance = 1e-2, double error_rate_threshold = 0);

bool has_class(const validator::TensorComparison& c, const std::string& name);
// True when some diagnostic line contains `text`.
bool diagnosed(const validator::TensorComparison& c, const std::string& text);

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
// Runs `command` through the shell; its output goes through `log`.
CommandResult run_command(const std::string& command, const std::filesystem::path& log);
// `op_validate <arguments>`
CommandResult op_validate(const std::string& arguments, const std::filesystem::path& log);

// Runs `action`, which must throw asc::Error; returns its code (Internal, after failing the
// test, when nothing is thrown).
ErrorCode error_code_of(const std::function<void()>& action);

std::string read_text(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const void* data, std::size_t size);

}  // namespace asc::test
