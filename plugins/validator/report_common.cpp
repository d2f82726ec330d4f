#include "report_common.hpp"

#include <cmath>

namespace asc::validator {

std::string npu_dump_label(const NetworkRow& row) {
  return row.actual_node.empty() ? "*" : row.actual_node;
}

std::string ground_truth_label(const NetworkRow& row) {
  if (row.kind == RowKind::GoldenOnly) return row.golden_node;
  if (row.kind == RowKind::ActualOnly || row.provenance.empty()) return "*";
  std::string text;
  for (const auto& name : row.provenance) text += (text.empty() ? "" : ",") + name;
  return text;
}

std::string tensor_index_label(const NetworkRow& row) {
  const std::string node = row.actual_node.empty() ? row.golden_node : row.actual_node;
  return node + ":output:" + (row.output_index < 0 ? std::string("*") : std::to_string(row.output_index));
}

std::string result_label(const NetworkRow& row) {
  switch (row.kind) {
    case RowKind::Compared:
      return row.comparison->passed ? "pass" : "FAIL";
    case RowKind::NotComparable:
      return "not comparable";
    case RowKind::ActualOnly:
    case RowKind::GoldenOnly:
      break;
  }
  return "not compared";
}

std::string overall_result(const NetworkComparison& comparison) {
  if (comparison.not_comparable > 0) return "error";
  return comparison.failed > 0 ? "fail" : "pass";
}

ErrorHistogram octave_bins(const OctaveHistogram& histogram) {
  ErrorHistogram result;
  result.zero = histogram.front();
  result.infinite = histogram.back();
  std::size_t first = histogram.size(), last = 0;
  for (std::size_t e = 1; e + 1 < histogram.size(); ++e)
    if (histogram[e] > 0) {
      first = std::min(first, e);
      last = e;
    }
  for (std::size_t e = first; e <= last && first < histogram.size(); ++e) {
    const double low = std::ldexp(1.0, static_cast<int>(e) - 1023);
    result.bins.push_back({low, 2 * low, histogram[e]});
  }
  return result;
}

}  // namespace asc::validator
