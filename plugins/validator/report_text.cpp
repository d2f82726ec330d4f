#include "report_text.hpp"

#include <algorithm>

#include "analyser_rules.hpp"
#include "text_format.hpp"

namespace asc::validator {
namespace {

constexpr std::size_t kMaxNameWidth = 32;

std::string clipped(const std::string& text) {
  return text.size() <= kMaxNameWidth ? text : text.substr(0, kMaxNameWidth - 3) + "...";
}

// Left-aligned columns separated by two spaces.
std::string table(const std::vector<std::vector<std::string>>& lines) {
  std::vector<std::size_t> widths;
  for (const auto& line : lines)
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], line[i].size());
    }
  std::string text;
  for (const auto& line : lines) {
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
      out += line[i];
      if (i + 1 < line.size()) out += std::string(widths[i] - line[i].size() + 2, ' ');
    }
    text += out + "\n";
  }
  return text;
}

std::string tolerances(const NetworkComparison& comparison) {
  const ComparisonOptions& o = comparison.options;
  const std::string nonfinite = comparison.criteria.nonfinite_in_error_rate
                                    ? "NaN/Inf mismatches count as failing elements"
                                    : "any NaN/Inf mismatch fails";
  if (comparison.criteria.kind == CriteriaKind::Network)
    return "criteria=network: CosineSimilarity >= " + format_number(kMsitCosineMinimum) +
           ", RelativeEuclideanDistance <= 10 epsilons of the precision computed in (float16 " +
           format_number(network_criteria(DType::Float16, false).relative_distance_maximum) + ", float32 " +
           format_number(network_criteria(DType::Float32, false).relative_distance_maximum) + "); " + nonfinite +
           "\n  element tolerances (reported, not deciding): abs_tolerance=" + format_number(o.abs_tolerance) +
           " rel_tolerance=" + format_number(o.rel_tolerance);
  return "abs_tolerance=" + format_number(o.abs_tolerance) + " rel_tolerance=" + format_number(o.rel_tolerance) +
         " error_rate_threshold=" + format_number(o.error_rate_threshold) + "; " + nonfinite;
}

std::string classes_suffix(const TensorComparison& c) {
  if (c.error_classes.empty()) return "";
  std::string text;
  for (const auto& name : c.error_classes) text += (text.empty() ? "" : ", ") + name;
  return " [" + text + "]";
}

// The metric for an analyser rule, the failing fraction otherwise.
std::string first_failure_value(const FirstFailure& f) {
  const auto& rules = analyser_rules();
  const bool is_rule = std::any_of(rules.begin(), rules.end(),
                                   [&](const AnalyserRule& r) { return r.describe() == f.criterion; });
  return is_rule ? "value " + format_number(f.value) : "error rate " + format_percent(f.value);
}

std::string single_report(const NetworkComparison& comparison, const ReportContext& context) {
  const NetworkRow& row = comparison.rows.front();
  const TensorComparison& c = *row.comparison;
  std::string text =
      "op_validate: " + (context.op_name.empty() ? std::string("tensor comparison") : context.op_name) + "\n";
  text += table({{"  golden", context.golden,
                  std::string(dtype_name(c.golden_dtype)) + shape_to_string(c.golden_shape)},
                 {"  actual", context.actual,
                  std::string(dtype_name(c.actual_dtype)) + shape_to_string(c.actual_shape)}});
  text += "  " + tolerances(comparison) + "\n\n";
  std::vector<std::vector<std::string>> lines{{"  Metric", "Value"}};
  for (const std::string& column : msit_metric_columns()) {
    if (column == "StandardDeviation") {
      lines.push_back(
          {"  " + column, standard_deviation_text(c.metrics) + "  (actual mean;std),(golden mean;std)"});
      continue;
    }
    for (const auto& [name, value] : named_metrics(c.metrics))
      if (name == column) lines.push_back({"  " + name, format_number(value)});
  }
  lines.push_back({"  ErrorRate", format_number(c.error_rate) + "  (" + std::to_string(c.stats.failing) +
                                      " of " + std::to_string(c.stats.elements) + " elements)"});
  text += table(lines) + "\n";
  text += std::string("Result: ") + (c.passed ? "PASS" : "FAIL") + classes_suffix(c) + "\n";
  for (const std::string& line : c.diagnostics) text += "  - " + line + "\n";
  return text;
}

std::string network_report(const NetworkComparison& comparison, const ReportContext& context) {
  std::string text = "op_validate: whole network\n" +
                     table({{"  golden_dir", context.golden}, {"  actual_dir", context.actual}}) + "  " +
                     tolerances(comparison) + "\n\n";
  std::vector<std::vector<std::string>> lines{{"Index", "NPUDump", "OpType", "Out", "GroundTruth", "Cosine",
                                               "RelDist", "MaxAbsErr", "MeanRelErr", "RMSE", "KLD",
                                               "ErrorRate", "Result"}};
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    const NetworkRow& row = comparison.rows[r];
    std::vector<std::string> line{std::to_string(r), clipped(npu_dump_label(row)),
                                  row.actual_op_type.empty() ? row.golden_op_type : row.actual_op_type,
                                  row.output_index < 0 ? "*" : std::to_string(row.output_index),
                                  clipped(ground_truth_label(row))};
    if (row.comparison) {
      const MsitMetrics& m = row.comparison->metrics;
      for (const double value :
           {m.cosine_similarity, m.relative_euclidean_distance, m.max_absolute_error, m.mean_relative_error,
            m.root_mean_square_error,
            m.kullback_leibler_divergence, row.comparison->error_rate})
        line.push_back(format_number(value));
      line.push_back(result_label(row) + classes_suffix(*row.comparison));
    } else {
      for (int i = 0; i < 7; ++i) line.push_back("-");
      line.push_back(result_label(row) + ": " + row.note);
    }
    if (comparison.first_failing_row == r) line.front() = "> " + line.front();
    lines.push_back(std::move(line));
  }
  text += table(lines) + "\n";
  text += "Summary: " + std::to_string(comparison.compared) + " outputs compared, " +
          std::to_string(comparison.failed) + " failed, " + std::to_string(comparison.not_comparable) +
          " not comparable, " + std::to_string(comparison.actual_only) + " without golden (NPU-only), " +
          std::to_string(comparison.golden_only) + " golden nodes not compared\n";
  text += std::string("Result: ") + (comparison.passed() ? "PASS" : "FAIL") + "\n";
  if (comparison.first_failures.empty()) return text;
  text += "First operator failing each criterion (golden execution order):\n";
  std::vector<std::vector<std::string>> firsts;
  for (const FirstFailure& f : comparison.first_failures) {
    const NetworkRow& row = comparison.rows[f.row];
    firsts.push_back({"  " + f.criterion, "row " + std::to_string(f.row), tensor_index_label(row),
                      "(" + (row.actual_op_type.empty() ? row.golden_op_type : row.actual_op_type) + ")",
                      first_failure_value(f)});
  }
  text += table(firsts);
  if (comparison.first_failing_row) {
    const NetworkRow& row = comparison.rows[*comparison.first_failing_row];
    text += "Diagnosis of the first failing operator, " + tensor_index_label(row) + ":\n";
    for (const std::string& line : row.comparison->diagnostics) text += "  - " + line + "\n";
  }
  return text;
}

}  // namespace

std::string render_text(const NetworkComparison& comparison, const ReportContext& context) {
  return context.mode == "files" ? single_report(comparison, context) : network_report(comparison, context);
}

}  // namespace asc::validator
