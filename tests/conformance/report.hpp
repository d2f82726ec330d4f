// What asc_conformance prints: a table per operator, totals per suite, and the failures.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "case_runner.hpp"
#include "test_case.hpp"

namespace asc::conformance {

struct TestRecord {
  TestCase test;
  std::string label;  // the operator it exercises (operator_label)
  CaseResult result;
};

void print_operator_table(std::ostream& out, const std::vector<TestRecord>& records);
void print_suite_totals(std::ostream& out, const std::vector<TestRecord>& records);
// Failed tests, one line each ("node/test_x [Op]: reason" with the reason on one line, shortened).
// With `full`, unsupported tests too and the complete reasons.
void print_failures(std::ostream& out, const std::vector<TestRecord>& records, bool full);

}  // namespace asc::conformance
