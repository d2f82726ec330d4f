// What every report format shares: the context line, per-row labels, and histogram bins.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "network_comparison.hpp"

namespace asc::validator {

struct ReportContext {
  std::string mode;            // "files" (one operator) or "dirs" (a whole network)
  std::string op_name;         // files mode
  std::string golden, actual;  // the files or directories compared
};

// msit's columns: NPUDump ("*" for golden-only rows), GroundTruth (the original node names,
// "*" for NPU-only rows), TensorIndex ("<npu node>:output:<index>").
std::string npu_dump_label(const NetworkRow& row);
std::string ground_truth_label(const NetworkRow& row);
std::string tensor_index_label(const NetworkRow& row);
// "pass", "FAIL", "not compared", "not comparable"
std::string result_label(const NetworkRow& row);
// "pass", "fail" or "error" (some rows could not be compared)
std::string overall_result(const NetworkComparison& comparison);

struct HistogramBin {
  double low = 0, high = 0;  // [low, high)
  std::int64_t count = 0;
};
struct ErrorHistogram {
  std::int64_t zero = 0;           // errors of exactly 0 (or subnormal)
  std::int64_t infinite = 0;       // errors that overflowed
  std::vector<HistogramBin> bins;  // powers of two, from the smallest to the largest non-empty one
};
ErrorHistogram octave_bins(const OctaveHistogram& histogram);

}  // namespace asc::validator
