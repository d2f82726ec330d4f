#include "report_json.hpp"

#include <asc/sdk/version.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "analyser_rules.hpp"

namespace asc::validator {
namespace {

using Json = nlohmann::ordered_json;

Json number(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

Json coordinates_list(const TensorComparison& c, const std::vector<std::int64_t>& indices) {
  Json list = Json::array();
  for (const std::int64_t index : indices) list.push_back(c.coordinates(index));
  return list;
}

Json nonfinite_json(const TensorComparison& c, const NonFiniteCounts& counts) {
  return {{"nan", counts.nan},
          {"pos_inf", counts.pos_inf},
          {"neg_inf", counts.neg_inf},
          {"first_nan", coordinates_list(c, counts.first_nan)},
          {"first_inf", coordinates_list(c, counts.first_inf)}};
}

Json samples_json(const TensorComparison& c, const std::vector<ElementSample>& samples) {
  Json list = Json::array();
  for (const ElementSample& e : samples)
    list.push_back({{"coordinates", c.coordinates(e.index)},
                    {"index", e.index},
                    {"golden", number(e.golden)},
                    {"actual", number(e.actual)},
                    {"abs_error", number(e.abs_error)},
                    {"rel_error", number(e.rel_error)}});
  return list;
}

Json histogram_json(const OctaveHistogram& histogram) {
  const ErrorHistogram h = octave_bins(histogram);
  Json bins = Json::array();
  for (const HistogramBin& bin : h.bins)
    bins.push_back({{"low", bin.low}, {"high", bin.high}, {"count", bin.count}});
  return {{"zero", h.zero}, {"overflowed", h.infinite}, {"bins", bins}};
}

Json comparison_json(const TensorComparison& c) {
  const TensorStatistics& s = c.stats;
  Json metrics = Json::object();
  for (const auto& [name, value] : named_metrics(c.metrics)) metrics[name] = number(value);
  metrics["StandardDeviation"] = standard_deviation_text(c.metrics);
  Json concentration = Json::array();
  for (const Concentration& along : c.concentration)
    concentration.push_back({{"axis", along.axis},
                             {"failures", along.failures},
                             {"concentrated", along.concentrated},
                             {"summary", along.summary}});
  return {
      {"passed", c.passed},
      {"criteria",
       {{"kind", kind_name(c.criteria.kind)},
        {"precision", c.criteria.kind == CriteriaKind::Network ? Json(std::string(dtype_name(c.criteria.precision))) : Json(nullptr)},
        {"cosine_minimum", c.criteria.kind == CriteriaKind::Network ? Json(c.criteria.cosine_minimum) : Json(nullptr)},
        {"relative_distance_maximum",
         c.criteria.kind == CriteriaKind::Network ? Json(c.criteria.relative_distance_maximum) : Json(nullptr)},
        {"nonfinite_in_error_rate", c.criteria.nonfinite_in_error_rate}}},
      {"error_classes", c.error_classes},
      {"elements", s.elements},
      {"finite_pairs", s.finite_pairs},
      {"failing_elements", s.failing},
      {"abs_failing_elements", s.abs_failing},
      {"rel_failing_elements", s.rel_failing},
      {"allowed_failures", c.allowed_failures},
      {"error_rate", c.error_rate},
      {"first_failing", s.first_failing ? Json(c.coordinates(*s.first_failing)) : Json(nullptr)},
      {"metrics", metrics},
      {"mean_actual", number(c.metrics.actual_mean)},
      {"std_actual", number(c.metrics.actual_std)},
      {"mean_golden", number(c.metrics.golden_mean)},
      {"std_golden", number(c.metrics.golden_std)},
      {"min_tolerance", {{"abs", number(c.min_abs_tolerance)}, {"rel", number(c.min_rel_tolerance)}}},
      {"scale_fit",
       {{"scale", number(c.scale.scale)},
        {"offset", number(c.scale.offset)},
        {"pearson", number(c.scale.pearson)},
        {"explained", number(c.scale.explained)},
        {"detected", c.scale.detected}}},
      {"nonfinite",
       {{"golden", nonfinite_json(c, s.golden_nonfinite)},
        {"actual", nonfinite_json(c, s.actual_nonfinite)},
        {"nan_mismatches", s.nan_mismatches},
        {"inf_mismatches", s.inf_mismatches}}},
      {"fp16_overflow",
       {{"count", s.fp16_overflow},
        {"first", s.first_fp16_overflow ? Json(c.coordinates(*s.first_fp16_overflow)) : Json(nullptr)}}},
      {"worst_abs", samples_json(c, s.worst_abs)},
      {"worst_rel", samples_json(c, s.worst_rel)},
      {"concentration", concentration},
      {"histogram", histogram_json(s.abs_histogram)},
      {"diagnostics", c.diagnostics},
  };
}

std::string kind_name(RowKind kind) {
  switch (kind) {
    case RowKind::Compared:
      return "compared";
    case RowKind::ActualOnly:
      return "actual_only";
    case RowKind::GoldenOnly:
      return "golden_only";
    case RowKind::NotComparable:
      return "not_comparable";
  }
  return "";
}

Json row_json(const NetworkRow& row, std::size_t index) {
  Json json = {{"index", index},
               {"kind", kind_name(row.kind)},
               {"result", result_label(row)},
               {"npu_dump", npu_dump_label(row)},
               {"op_type", row.actual_op_type.empty() ? row.golden_op_type : row.actual_op_type},
               {"ground_truth", row.provenance},
               {"golden_node", row.golden_node},
               {"golden_op_type", row.golden_op_type},
               {"tensor_index", tensor_index_label(row)},
               {"output_index", row.output_index},
               {"actual_dtype", row.actual_dtype},
               {"golden_dtype", row.golden_dtype},
               {"shape", row.shape},
               {"note", row.note}};
  if (row.comparison) json["comparison"] = comparison_json(*row.comparison);
  return json;
}

}  // namespace

std::string render_json(const NetworkComparison& comparison, const ReportContext& context) {
  const ComparisonOptions& o = comparison.options;
  Json first = Json::array();
  for (const FirstFailure& f : comparison.first_failures) {
    const NetworkRow& row = comparison.rows[f.row];
    first.push_back({{"criterion", f.criterion},
                     {"row", f.row},
                     {"npu_dump", npu_dump_label(row)},
                     {"tensor_index", tensor_index_label(row)},
                     {"value", number(f.value)}});
  }
  Json rules = Json::array();
  for (const AnalyserRule& rule : analyser_rules()) rules.push_back(rule.describe());
  Json rows = Json::array();
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) rows.push_back(row_json(comparison.rows[r], r));
  const Json report = {
      {"tool", "op_validate"},
      {"sdk_version", ASC_SDK_VERSION_STRING},
      {"mode", context.mode},
      {"op_name", context.op_name},
      {"golden", context.golden},
      {"actual", context.actual},
      {"options",
       {{"criteria", kind_name(comparison.criteria.kind)},
        {"abs_tolerance", o.abs_tolerance},
        {"rel_tolerance", o.rel_tolerance},
        {"error_rate_threshold", o.error_rate_threshold},
        {"nonfinite_in_error_rate", comparison.criteria.nonfinite_in_error_rate}}},
      {"result", overall_result(comparison)},
      {"summary",
       {{"rows", comparison.rows.size()},
        {"compared", comparison.compared},
        {"failed", comparison.failed},
        {"actual_only", comparison.actual_only},
        {"golden_only", comparison.golden_only},
        {"not_comparable", comparison.not_comparable}}},
      {"analyser_rules", rules},
      {"first_failures", first},
      {"rows", rows},
  };
  return report.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace asc::validator
