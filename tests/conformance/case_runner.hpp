// Runs one ONNX backend test case through the project: the "onnx" parser, the "reference"
// backend, and a comparison of every output of every test_data_set_N with ONNX's.
#pragma once

#include <asc/sdk/registry.hpp>
#include <string>

#include "tensor_compare.hpp"
#include "test_case.hpp"

namespace asc::conformance {

enum class Outcome { Passed, Failed, Unsupported, OutOfScope };

struct CaseResult {
  Outcome outcome = Outcome::Failed;
  std::string reason;  // why it did not pass (may span lines); empty when passed
};

// Unsupported: the parser or the backend's compile raised EE2001 (an operator without a
// kernel). Any other error, a wrong output, or a missing data file is a failure.
CaseResult run_test_case(const TestCase& test, const Registry& registry, const Tolerance& tolerance);

}  // namespace asc::conformance
