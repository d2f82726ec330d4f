#include "support.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace asc::test {

Tensor floats(Shape shape, std::vector<float> values) {
  return Tensor::from_vector<float>(std::move(shape), values);
}

Tensor doubles(Shape shape, std::vector<double> values) {
  return Tensor::from_vector<double>(std::move(shape), values);
}

validator::TensorComparison compare(const Tensor& golden, const Tensor& actual, double abs_tolerance,
                                    double rel_tolerance, double error_rate_threshold) {
  ComparisonOptions options;
  options.abs_tolerance = abs_tolerance;
  options.rel_tolerance = rel_tolerance;
  options.error_rate_threshold = error_rate_threshold;
  return validator::compare_tensors(golden.view(), actual.view(), options);
}

bool has_class(const validator::TensorComparison& c, const std::string& name) {
  return std::find(c.error_classes.begin(), c.error_classes.end(), name) != c.error_classes.end();
}

bool diagnosed(const validator::TensorComparison& c, const std::string& text) {
  return std::any_of(c.diagnostics.begin(), c.diagnostics.end(),
                     [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_bytes(const std::filesystem::path& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
}

CommandResult run_command(const std::string& command, const std::filesystem::path& log) {
  const int status = std::system((command + " > '" + log.string() + "' 2>&1").c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.output = read_text(log);
  return result;
}

CommandResult op_validate(const std::string& arguments, const std::filesystem::path& log) {
  return run_command(std::string(ASC_OP_VALIDATE) + " " + arguments, log);
}

ErrorCode error_code_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.code();
  }
  FAIL("expected an asc::Error");
  return ErrorCode::Internal;
}

}  // namespace asc::test
