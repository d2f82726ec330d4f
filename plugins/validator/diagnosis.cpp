#include "diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "element_errors.hpp"
#include "text_format.hpp"

namespace asc::validator {
namespace {

// A scale error: the affine fit must be near-perfect and explain most of the error, over enough
// elements that a line through them means something (any two points lie on one).
constexpr double kScalePearsonMinimum = 0.999;
constexpr double kScaleExplainedMinimum = 0.9;
constexpr std::int64_t kScaleMinimumElements = 8;
// An axis is "concentrated" when a quarter of its positions (or one) hold 80% of the failures.
constexpr double kConcentrationShare = 0.8;
constexpr std::size_t kWorstShown = 3;

ScaleFit fit_scale(const TensorComparison& c) {
  ScaleFit fit;
  const TensorStatistics& s = c.stats;
  const SecondPassSums& m = s.second;
  if (s.finite_pairs < kScaleMinimumElements || !(m.centered_golden_squares > 0) ||
      !(s.squared_error_sum() > 0))
    return fit;
  fit.scale = 1.0 + m.centered_error_golden / m.centered_golden_squares;
  fit.offset = c.metrics.actual_mean - fit.scale * c.metrics.golden_mean;
  const double centered_cross = m.centered_error_golden + m.centered_golden_squares;
  const double denominator = std::sqrt(m.centered_actual_squares * m.centered_golden_squares);
  fit.pearson = denominator > 0 ? std::clamp(centered_cross / denominator, -1.0, 1.0) : 0.0;
  // Residual of the fit from the error's own moments: no cancellation between large sums.
  const double residual =
      std::max(0.0, m.centered_error_squares -
                        m.centered_error_golden * m.centered_error_golden / m.centered_golden_squares);
  fit.explained = std::clamp(1.0 - residual / s.squared_error_sum(), 0.0, 1.0);
  fit.detected = !c.passed && fit.pearson >= kScalePearsonMinimum && fit.explained >= kScaleExplainedMinimum;
  return fit;
}

std::string position_label(const std::string& axis, std::int64_t position, std::size_t size) {
  std::string label = axis + " " + std::to_string(position);
  if (axis != "channel" && size > 1) {
    if (position == 0) label += " (first)";
    if (position == static_cast<std::int64_t>(size) - 1) label += " (last)";
  }
  return label;
}

Concentration concentration_along(const std::string& axis, const std::vector<std::int64_t>& failures) {
  Concentration result{axis, failures, false, ""};
  const std::int64_t total = std::accumulate(failures.begin(), failures.end(), std::int64_t{0});
  if (total == 0) return result;
  std::vector<std::size_t> order(failures.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return failures[a] > failures[b]; });
  std::size_t holding = 0;
  std::int64_t held = 0;
  while (holding < order.size() &&
         static_cast<double>(held) < kConcentrationShare * static_cast<double>(total))
    held += failures[order[holding++]];
  const std::size_t size = failures.size();
  const std::size_t with_failures = static_cast<std::size_t>(
      std::count_if(failures.begin(), failures.end(), [](std::int64_t f) { return f > 0; }));
  result.concentrated = size > 1 && holding <= std::max<std::size_t>(1, size / 4);
  const double top_share = static_cast<double>(failures[order[0]]) / static_cast<double>(total);
  const std::string of = " (of " + std::to_string(size) + ")";
  if (top_share >= 0.5) {
    result.summary = format_percent(top_share) + " of failures in " +
                     position_label(axis, static_cast<std::int64_t>(order[0]), size) + of;
  } else if (result.concentrated) {
    std::string names;
    for (std::size_t i = 0; i < std::min<std::size_t>(holding, 8); ++i)
      names += (i ? ", " : "") + std::to_string(order[i]);
    if (holding > 8) names += ", ...";
    result.summary = format_percent(static_cast<double>(held) / static_cast<double>(total)) +
                     " of failures in " + axis + "s " + names + " (" + std::to_string(holding) + " of " +
                     std::to_string(size) + ")";
  } else {
    result.summary = "failures spread over " + std::to_string(with_failures) + " of " + std::to_string(size) +
                     " " + axis + "s (the most, " + format_percent(top_share) + ", in " +
                     position_label(axis, static_cast<std::int64_t>(order[0]), size) + ")";
  }
  return result;
}

std::string positions_text(const TensorComparison& c, const std::vector<std::int64_t>& positions,
                           std::int64_t count) {
  std::string text;
  for (std::size_t i = 0; i < positions.size(); ++i) text += (i ? ", " : "") + c.coordinates(positions[i]);
  if (count > static_cast<std::int64_t>(positions.size())) text += ", ...";
  return text;
}

std::string nonfinite_line(const TensorComparison& c, const std::string& side,
                           const NonFiniteCounts& counts) {
  std::string line = side + " has";
  if (counts.nan > 0)
    line += " " + std::to_string(counts.nan) + " NaN (first at " +
            positions_text(c, counts.first_nan, counts.nan) + ")";
  if (counts.inf() > 0)
    line += std::string(counts.nan > 0 ? ";" : "") + " " + std::to_string(counts.inf()) + " Inf (" +
            std::to_string(counts.pos_inf) + " +Inf, " + std::to_string(counts.neg_inf) + " -Inf; first at " +
            positions_text(c, counts.first_inf, counts.inf()) + ")";
  return line;
}

std::string sample_text(const TensorComparison& c, const ElementSample& e) {
  return c.coordinates(e.index) + ": golden=" + format_number(e.golden) +
         " actual=" + format_number(e.actual) + " abs_error=" + format_number(e.abs_error) +
         " rel_error=" + format_number(e.rel_error);
}

// The element tolerances: the verdict under the Elements criteria, a breakdown under Network.
std::string element_count_line(const TensorComparison& c) {
  const TensorStatistics& s = c.stats;
  return std::to_string(s.failing) + " of " + std::to_string(s.elements) + " elements (" +
         format_percent(c.error_rate) + ") fail abs_tolerance=" + format_number(c.options.abs_tolerance) +
         " or rel_tolerance=" + format_number(c.options.rel_tolerance);
}

std::string nonfinite_verdict(const TensorComparison& c) {
  return std::to_string(c.nonfinite_mismatches()) +
         " NaN/Inf value(s) where the other side holds none fail the comparison whatever the tolerances "
         "(nonfinite_in_error_rate not set)";
}

void add_network_verdict(TensorComparison& c) {
  const VerdictCriteria& k = c.criteria;
  const MsitMetrics& m = c.metrics;
  std::string verdict = std::string(c.passed ? "PASS" : "FAIL") + ": CosineSimilarity " +
                        format_number(m.cosine_similarity) + (c.cosine_fails() ? " < " : " (>= ") +
                        format_number(k.cosine_minimum) + (c.cosine_fails() ? "" : ")") +
                        ", RelativeEuclideanDistance " + format_number(m.relative_euclidean_distance) +
                        (c.relative_distance_fails() ? " > " : " (<= ") +
                        format_number(k.relative_distance_maximum) + (c.relative_distance_fails() ? "" : ")") +
                        " for values computed in " + std::string(dtype_name(k.precision)) +
                        " (whole-network criteria)";
  c.diagnostics.push_back(verdict);
  if (c.relative_distance_fails() && !(std::sqrt(c.stats.golden_squares()) > kMsitEpsilon))
    c.diagnostics.push_back("the golden is all zero (norm <= eps) but the actual is not");
  if (c.nonfinite_fails()) c.diagnostics.push_back(nonfinite_verdict(c));
  if (c.stats.elements > 0) c.diagnostics.push_back("element tolerances, not part of the verdict: " +
                                                    element_count_line(c));
}

void add_verdict(TensorComparison& c) {
  const TensorStatistics& s = c.stats;
  auto& lines = c.diagnostics;
  if (s.elements == 0) {
    lines.push_back("PASS: the tensors are empty; nothing to compare");
    return;
  }
  if (c.criteria.kind == CriteriaKind::Network) {
    add_network_verdict(c);
  } else {
    std::string verdict = std::string(c.passed ? "PASS" : "FAIL") + ": " + element_count_line(c) + "; ";
    verdict += c.allowed_failures == 0
                   ? "none may fail"
                   : std::to_string(c.allowed_failures) + " may fail (error_rate_threshold=" +
                         format_number(c.options.error_rate_threshold) + ")";
    lines.push_back(verdict);
    if (c.nonfinite_fails() && s.failing <= c.allowed_failures) lines.push_back(nonfinite_verdict(c));
  }
  if (s.failing == 0) return;
  std::string breakdown = "abs error > " + format_number(c.options.abs_tolerance) + " at " +
                          std::to_string(s.abs_failing) + " elements, rel error > " +
                          format_number(c.options.rel_tolerance) + " at " + std::to_string(s.rel_failing);
  if (s.nan_mismatches > 0) breakdown += ", NaN not in golden at " + std::to_string(s.nan_mismatches);
  if (s.inf_mismatches > 0) breakdown += ", Inf not in golden at " + std::to_string(s.inf_mismatches);
  if (s.first_failing) breakdown += "; first failing element at " + c.coordinates(*s.first_failing);
  lines.push_back(breakdown);
}

void add_nonfinite(TensorComparison& c) {
  const TensorStatistics& s = c.stats;
  const bool actual_has = s.actual_nonfinite.nan + s.actual_nonfinite.inf() > 0;
  const bool golden_has = s.golden_nonfinite.nan + s.golden_nonfinite.inf() > 0;
  if (actual_has) c.diagnostics.push_back(nonfinite_line(c, "actual", s.actual_nonfinite));
  if (golden_has) c.diagnostics.push_back(nonfinite_line(c, "golden", s.golden_nonfinite));
  if (s.nan_mismatches + s.inf_mismatches > 0)
    c.diagnostics.push_back(
        "NaN/Inf usually come from overflow: an fp16 pipeline turns values beyond 65504 into Inf, and Inf "
        "into "
        "NaN downstream; find the first operator that produces them (compare the whole network) and keep it "
        "in "
        "fp32 (--precision_mode), or check its weights for NaN/Inf");
}

void add_overflow(TensorComparison& c) {
  const TensorStatistics& s = c.stats;
  if (s.fp16_overflow == 0) return;
  c.diagnostics.push_back("golden has " + std::to_string(s.fp16_overflow) +
                          " values beyond the float16 range (|x| > 65504; largest |x| = " +
                          format_number(s.largest_fp16_overflow) + "), first at " +
                          c.coordinates(*s.first_fp16_overflow) +
                          ": an fp16 pipeline overflows to Inf there; keep this operator in fp32");
}

void add_worst(TensorComparison& c) {
  const TensorStatistics& s = c.stats;
  if (s.worst_abs.empty() || s.worst_abs.front().abs_error == 0) return;
  for (std::size_t i = 0; i < std::min(kWorstShown, s.worst_abs.size()); ++i)
    c.diagnostics.push_back("worst abs error #" + std::to_string(i + 1) + " at " +
                            sample_text(c, s.worst_abs[i]));
  if (!s.worst_rel.empty() && s.worst_rel.front().index != s.worst_abs.front().index)
    c.diagnostics.push_back("worst rel error at " + sample_text(c, s.worst_rel.front()));
}

void add_concentration(TensorComparison& c) {
  const TensorStatistics& s = c.stats;
  if (s.failing == 0 || s.channel_failures.empty()) return;
  c.concentration = {concentration_along("channel", s.channel_failures),
                     concentration_along("row", s.row_failures),
                     concentration_along("column", s.col_failures)};
  for (const Concentration& along : c.concentration)
    if (along.axis == "channel" || along.concentrated) c.diagnostics.push_back(along.summary);
}

void add_scale(TensorComparison& c) {
  if (!c.scale.detected) return;
  const std::string offset = (c.scale.offset < 0 ? " - " : " + ") + format_number(std::fabs(c.scale.offset));
  c.diagnostics.push_back("actual ~ " + format_number(c.scale.scale) + " * golden" + offset +
                          " (Pearson r = " + format_number(c.scale.pearson) + "; the fit explains " +
                          format_percent(c.scale.explained) +
                          " of the squared error): the values are right in direction but scaled, which "
                          "points at a constant in the "
                          "kernel (a normalisation parameter, LeakyReLU's negative_slope, Softmax's "
                          "temperature, a weight scale)");
}

void add_min_tolerance(TensorComparison& c) {
  // Under the network criteria the element tolerances do not decide, so no tolerance "passes".
  if (c.stats.elements == 0 || c.criteria.kind == CriteriaKind::Network) return;
  if (std::isinf(c.min_abs_tolerance)) {
    c.diagnostics.push_back(
        "no tolerance passes: " + std::to_string(c.nonfinite_mismatches()) + " NaN/Inf mismatch(es)" +
        (c.nonfinite_fails() ? " fail whatever the tolerances"
                             : " are more than the " + std::to_string(c.allowed_failures) + " failures allowed"));
  } else if (c.allowed_failures == 0) {
    c.diagnostics.push_back(
        "minimum tolerances that pass: abs_tolerance >= " + format_number(c.min_abs_tolerance) +
        " and rel_tolerance >= " + format_number(c.min_rel_tolerance));
  } else {
    c.diagnostics.push_back(
        "with error_rate_threshold=" + format_number(c.options.error_rate_threshold) +
        ": the abs criterion alone passes at abs_tolerance >= " + format_number(c.min_abs_tolerance) +
        ", the rel criterion alone at rel_tolerance >= " + format_number(c.min_rel_tolerance) +
        " (together they may need more, when different elements fail each)");
  }
}

void classify(TensorComparison& c) {
  if (c.passed) return;
  const TensorStatistics& s = c.stats;
  if (c.criteria.kind == CriteriaKind::Elements) {
    if (s.abs_failing > 0) c.error_classes.push_back("absolute");
    if (s.rel_failing > 0) c.error_classes.push_back("relative");
  } else {
    if (c.cosine_fails()) c.error_classes.push_back("cosine");
    if (c.relative_distance_fails()) c.error_classes.push_back("relative_distance");
  }
  if (s.nan_mismatches > 0) c.error_classes.push_back("nan");
  if (s.inf_mismatches > 0) c.error_classes.push_back("inf");
  if (c.scale.detected) c.error_classes.push_back("scale_offset");
  if (s.fp16_overflow > 0) c.error_classes.push_back("fp16_overflow");
}

}  // namespace

void diagnose(TensorComparison& c) {
  c.scale = fit_scale(c);
  classify(c);
  add_verdict(c);
  add_nonfinite(c);
  add_overflow(c);
  add_scale(c);
  add_concentration(c);
  add_worst(c);
  add_min_tolerance(c);
}

}  // namespace asc::validator
