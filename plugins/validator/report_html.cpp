#include "report_html.hpp"

#include <algorithm>
#include <cmath>

#include <asc/sdk/text_escape.hpp>

#include "text_format.hpp"

namespace asc::validator {
namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em;margin:0 0 .3em} h2{font-size:1.1em;margin:1.2em 0 .4em}
.meta td{padding:1px 10px 1px 0;font-family:monospace}
.badge{display:inline-block;padding:2px 10px;border-radius:4px;font-weight:bold;color:#fff}
.badge.pass{background:#2e7d32}.badge.fail{background:#c62828}.badge.error{background:#ef6c00}
.banner{margin:1em 0;padding:.6em 1em;border-left:5px solid #c62828;background:#fdecea}
.banner.ok{border-color:#2e7d32;background:#edf7ed}
table.ops{border-collapse:collapse;font-size:13px}
table.ops th,table.ops td{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}
table.ops th{background:#f3f3f3;position:sticky;top:0}
table.ops td.name{text-align:left;font-family:monospace;max-width:28em;overflow:hidden;text-overflow:ellipsis}
tr.op{cursor:pointer} tr.op:hover{background:#f7f7ff}
tr.fail td.result{color:#c62828;font-weight:bold} tr.pass td.result{color:#2e7d32}
tr.skipped{color:#888} tr.first{outline:3px solid #c62828;background:#fdecea}
tr.details>td{text-align:left;background:#fafafa;white-space:normal}
.details ul{margin:.3em 0 .6em 1.2em;padding:0} .charts{display:flex;flex-wrap:wrap;gap:1.5em}
.charts figure{margin:0} figcaption{font-size:12px;color:#555}
table.worst{border-collapse:collapse;font-size:12px;margin:.4em 0}
table.worst td,table.worst th{border:1px solid #ddd;padding:2px 6px;font-family:monospace}
.hidden{display:none}
)";

constexpr const char* kScript = R"(
document.querySelectorAll('tr.op').forEach(function(row){
  row.addEventListener('click',function(){
    var d=document.getElementById(row.dataset.details); if(d) d.classList.toggle('hidden');});});
var only=document.getElementById('failing-only');
if(only) only.addEventListener('change',function(){
  document.querySelectorAll('tr.op').forEach(function(row){
    var hide=only.checked&&!row.classList.contains('fail');
    row.classList.toggle('hidden',hide);
    var d=document.getElementById(row.dataset.details); if(d&&hide) d.classList.add('hidden');});});
)";

// Bars of the octave histogram with the tolerance marked.
std::string histogram_svg(const OctaveHistogram& histogram, double tolerance, const std::string& title) {
  const ErrorHistogram h = octave_bins(histogram);
  std::vector<std::pair<std::string, std::int64_t>> bars;
  if (h.zero > 0) bars.push_back({"0", h.zero});
  for (const HistogramBin& bin : h.bins) bars.push_back({format_number(bin.low), bin.count});
  if (h.infinite > 0) bars.push_back({"Inf", h.infinite});
  if (bars.empty()) return "";
  const int width = 40 + 18 * static_cast<int>(bars.size()), height = 170, base = 120;
  std::int64_t most = 1;
  for (const auto& bar : bars) most = std::max(most, bar.second);
  std::string svg = "<figure><svg width='" + std::to_string(width) + "' height='" + std::to_string(height) +
                    "' role='img'>";
  svg += "<line x1='30' y1='" + std::to_string(base) + "' x2='" + std::to_string(width) + "' y2='" +
         std::to_string(base) + "' stroke='#999'/>";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const int x = 32 + 18 * static_cast<int>(i);
    // Log-scaled heights so that a handful of outliers still shows next to millions of elements.
    const double share =
        std::log1p(static_cast<double>(bars[i].second)) / std::log1p(static_cast<double>(most));
    const int bar_height = static_cast<int>(std::lround(share * 100));
    svg += "<rect x='" + std::to_string(x) + "' y='" + std::to_string(base - bar_height) +
           "' width='14' height='" + std::to_string(bar_height) + "' fill='#5c6bc0'><title>[" +
           html_escape(bars[i].first) + ", x2): " + std::to_string(bars[i].second) + " elements</title></rect>";
    if (i % 3 == 0)
      svg += "<text x='" + std::to_string(x + 7) + "' y='" + std::to_string(base + 6) +
             "' font-size='9' text-anchor='end' transform='rotate(-60 " + std::to_string(x + 7) + " " +
             std::to_string(base + 6) + ")'>" + html_escape(bars[i].first) + "</text>";
  }
  // The tolerance sits inside the octave bin [2^k, 2^(k+1)) with k = floor(log2(tolerance)).
  if (tolerance > 0 && std::isfinite(tolerance)) {
    const std::size_t offset = h.zero > 0 ? 1 : 0;
    for (std::size_t i = 0; i < h.bins.size(); ++i)
      if (tolerance >= h.bins[i].low && tolerance < h.bins[i].high) {
        const double fraction = std::log2(tolerance / h.bins[i].low);
        const int x = 32 + 18 * static_cast<int>(i + offset) + static_cast<int>(std::lround(fraction * 18));
        svg += "<line x1='" + std::to_string(x) + "' y1='10' x2='" + std::to_string(x) + "' y2='" +
               std::to_string(base) + "' stroke='#c62828' stroke-dasharray='4 2'><title>tolerance " +
               format_number(tolerance) + "</title></line>";
      }
  }
  svg += "</svg><figcaption>" + html_escape(title) +
         " (bins of powers of two, log-scaled counts; red: tolerance " + format_number(tolerance) +
         ")</figcaption></figure>";
  return svg;
}

std::string concentration_svg(const Concentration& along) {
  const std::size_t n = along.failures.size();
  if (n == 0 || n > 2048) return "";
  std::int64_t most = 1;
  for (const std::int64_t f : along.failures) most = std::max(most, f);
  const int bar = n > 128 ? 2 : (n > 32 ? 4 : 12);
  const int width = 20 + bar * static_cast<int>(n), height = 90;
  std::string svg =
      "<figure><svg width='" + std::to_string(width) + "' height='" + std::to_string(height) + "'>";
  for (std::size_t i = 0; i < n; ++i) {
    const int h = static_cast<int>(70.0 * static_cast<double>(along.failures[i]) / static_cast<double>(most));
    svg += "<rect x='" + std::to_string(10 + bar * static_cast<int>(i)) + "' y='" + std::to_string(75 - h) +
           "' width='" + std::to_string(std::max(1, bar - 1)) + "' height='" + std::to_string(h) +
           "' fill='#ef6c00'><title>" + along.axis + " " + std::to_string(i) + ": " +
           std::to_string(along.failures[i]) + " failures</title></rect>";
  }
  svg += "</svg><figcaption>failures per " + html_escape(along.axis) + ": " + html_escape(along.summary) +
         "</figcaption></figure>";
  return svg;
}

std::string worst_table(const TensorComparison& c, const std::vector<ElementSample>& samples,
                        const std::string& by) {
  if (samples.empty()) return "";
  std::string html = "<table class='worst'><tr><th>worst by " + html_escape(by) +
                     "</th><th>golden</th><th>actual</th><th>abs error</th><th>rel error</th></tr>";
  for (const ElementSample& e : samples)
    html += "<tr><td>" + html_escape(c.coordinates(e.index)) + "</td><td>" + format_number(e.golden) +
            "</td><td>" + format_number(e.actual) + "</td><td>" + format_number(e.abs_error) + "</td><td>" +
            format_number(e.rel_error) + "</td></tr>";
  return html + "</table>";
}

std::string details_html(const NetworkRow& row) {
  std::string html = "<div class='details'>";
  if (!row.note.empty()) html += "<p>" + html_escape(row.note) + "</p>";
  if (!row.comparison) return html + "</div>";
  const TensorComparison& c = *row.comparison;
  html += "<p>golden " + html_escape(std::string(dtype_name(c.golden_dtype)) + shape_to_string(c.golden_shape)) +
          ", actual " + html_escape(std::string(dtype_name(c.actual_dtype)) + shape_to_string(c.actual_shape)) +
          "; StandardDeviation " + html_escape(standard_deviation_text(c.metrics)) + "</p><ul>";
  for (const std::string& line : c.diagnostics) html += "<li>" + html_escape(line) + "</li>";
  html += "</ul><div class='charts'>";
  html += histogram_svg(c.stats.abs_histogram, c.options.abs_tolerance, "absolute error");
  for (const Concentration& along : c.concentration) html += concentration_svg(along);
  html += "</div>";
  html += worst_table(c, c.stats.worst_abs, "abs error") + worst_table(c, c.stats.worst_rel, "rel error");
  return html + "</div>";
}

std::string row_class(const NetworkRow& row, bool first) {
  std::string cls = "op ";
  if (row.kind == RowKind::ActualOnly || row.kind == RowKind::GoldenOnly)
    cls += "skipped";
  else
    cls += row.failed() ? "fail" : "pass";
  if (first) cls += " first";
  return cls;
}

std::string cell(const std::string& text, const char* cls = nullptr) {
  return std::string("<td") + (cls ? std::string(" class='") + cls + "'" : "") + ">" + html_escape(text) +
         "</td>";
}

}  // namespace

std::string render_html(const NetworkComparison& comparison, const ReportContext& context) {
  const std::string result = overall_result(comparison);
  const bool single = context.mode == "files";
  std::string title = single ? "op_validate: " + (context.op_name.empty() ? std::string("tensor comparison")
                                                                          : context.op_name)
                             : std::string("op_validate: whole-network comparison");
  std::string html = "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>" + html_escape(title) +
                     "</title><style>" + kStyle + "</style></head><body>\n";
  html += "<h1>" + html_escape(title) + " <span class='badge " + result + "'>" +
          (result == "pass"   ? "PASS"
           : result == "fail" ? "FAIL"
                              : "ERROR") +
          "</span></h1>\n";
  const ComparisonOptions& o = comparison.options;
  html += "<table class='meta'><tr><td>golden</td><td>" + html_escape(context.golden) +
          "</td></tr><tr><td>actual</td><td>" + html_escape(context.actual) +
          "</td></tr><tr><td>tolerances</td><td>abs " + format_number(o.abs_tolerance) + ", rel " +
          format_number(o.rel_tolerance) + ", error rate " + format_number(o.error_rate_threshold) +
          "</td></tr><tr><td>rows</td><td>" + std::to_string(comparison.compared) + " compared, " +
          std::to_string(comparison.failed) + " failed, " + std::to_string(comparison.not_comparable) +
          " not comparable, " + std::to_string(comparison.actual_only) + " NPU-only, " +
          std::to_string(comparison.golden_only) + " golden-only</td></tr></table>\n";
  if (comparison.first_failing_row) {
    const std::size_t r = *comparison.first_failing_row;
    const NetworkRow& row = comparison.rows[r];
    std::string classes;
    for (const auto& name : row.comparison->error_classes) classes += (classes.empty() ? "" : ", ") + name;
    html += "<div class='banner'>First operator failing the precision check: <a href='#row-" +
            std::to_string(r) + "'><b>" + html_escape(tensor_index_label(row)) + "</b></a> (" +
            html_escape(row.actual_op_type.empty() ? row.golden_op_type : row.actual_op_type) +
            "): " + html_escape(classes) + "</div>\n";
  } else {
    html += "<div class='banner ok'>" +
            std::string(comparison.not_comparable > 0
                            ? "No precision failure, but some outputs could not be compared."
                            : "Every compared output passes.") +
            "</div>\n";
  }
  if (!comparison.first_failures.empty()) {
    html +=
        "<h2>First operator failing each criterion</h2><table "
        "class='ops'><tr><th>criterion</th><th>row</th><th>output</th><th>value</th></tr>";
    for (const FirstFailure& f : comparison.first_failures)
      html += "<tr>" + cell(f.criterion, "name") + "<td><a href='#row-" + std::to_string(f.row) + "'>" +
              std::to_string(f.row) + "</a></td>" + cell(tensor_index_label(comparison.rows[f.row]), "name") +
              cell(format_number(f.value)) + "</tr>";
    html += "</table>\n";
  }
  html += "<h2>Operators</h2>";
  if (!single)
    html +=
        "<label><input type='checkbox' id='failing-only'> show failing rows only</label> (click a row for "
        "its details)";
  html +=
      "<table class='ops'><tr><th>#</th><th>NPUDump</th><th>OpType</th><th>Out</th><th>GroundTruth</th>"
      "<th>Cosine</th><th>MaxAbsErr</th><th>MeanAbsErr</th><th>MaxRelErr</th><th>MeanRelErr</th><th>RMSE</th>"
      "<th>RelEuclid</th><th>KLD</th><th>ErrorRate</th><th>Result</th></tr>\n";
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    const NetworkRow& row = comparison.rows[r];
    const std::string details_id = "details-" + std::to_string(r);
    html += "<tr id='row-" + std::to_string(r) + "' class='" +
            row_class(row, comparison.first_failing_row == r) + "' data-details='" + details_id + "'>" +
            cell(std::to_string(r)) + cell(npu_dump_label(row), "name") +
            cell(row.actual_op_type.empty() ? row.golden_op_type : row.actual_op_type, "name") +
            cell(row.output_index < 0 ? "*" : std::to_string(row.output_index)) +
            cell(ground_truth_label(row), "name");
    if (row.comparison) {
      const MsitMetrics& m = row.comparison->metrics;
      for (const double value :
           {m.cosine_similarity, m.max_absolute_error, m.mean_absolute_error, m.max_relative_error,
            m.mean_relative_error, m.root_mean_square_error, m.relative_euclidean_distance,
            m.kullback_leibler_divergence, row.comparison->error_rate})
        html += cell(format_number(value));
      std::string label = result_label(row);
      for (const auto& name : row.comparison->error_classes) label += " " + name;
      html += cell(label, "result");
    } else {
      html += "<td colspan='9'></td>" + cell(result_label(row), "result");
    }
    html += "</tr>\n<tr id='" + details_id + "' class='details" + (single ? "" : " hidden") +
            "'><td colspan='15'>" + details_html(row) + "</td></tr>\n";
  }
  html += "</table>\n<script>" + std::string(kScript) + "</script>\n</body></html>\n";
  return html;
}

}  // namespace asc::validator
