#include "report_html.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <asc/sdk/text_escape.hpp>

#include "report_html_chart.hpp"
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
svg.summary{width:100%;max-width:1100px;height:auto;border:1px solid #eee;background:#fff}
.controls{margin:.4em 0;display:flex;gap:1.2em;align-items:center;flex-wrap:wrap}
.controls input[type=search]{padding:2px 6px;width:18em}
table.ops th.sortable{cursor:pointer} table.ops th.sortable:after{content:' \2195';color:#aaa}
table.ops th.asc:after{content:' \2191';color:#222} table.ops th.desc:after{content:' \2193';color:#222}
details.skipped{margin:1em 0} details.skipped summary{cursor:pointer;font-weight:bold}
)";

// Row details on click; the filter box, "failing only" and sorting by a column header. Each
// operator row keeps its details row right after it when the table is re-ordered.
constexpr const char* kScript = R"(
(function(){
var table=document.getElementById('ops'); if(!table) return;
var body=table.tBodies[0];
var rows=Array.prototype.slice.call(body.querySelectorAll('tr.op'));
function details(row){return document.getElementById(row.dataset.details);}
rows.forEach(function(row){row.addEventListener('click',function(){var d=details(row); if(d) d.classList.toggle('hidden');});});
var query=document.getElementById('filter'), only=document.getElementById('failing-only'), shown=document.getElementById('shown');
function apply(){
  var q=query?query.value.toLowerCase():'', n=0;
  rows.forEach(function(row){
    var hide=(only&&only.checked&&!row.classList.contains('fail'))||(q&&row.dataset.search.indexOf(q)<0);
    row.classList.toggle('hidden',hide); if(!hide) n++;
    var d=details(row); if(d&&hide) d.classList.add('hidden');});
  if(shown) shown.textContent=n+' of '+rows.length+' shown';
}
if(query) query.addEventListener('input',apply);
if(only) only.addEventListener('change',apply);
table.querySelectorAll('th.sortable').forEach(function(th){
  th.addEventListener('click',function(){
    var col=+th.dataset.col, asc=!th.classList.contains('asc');
    table.querySelectorAll('th.sortable').forEach(function(h){h.classList.remove('asc','desc');});
    th.classList.add(asc?'asc':'desc');
    function key(row){var c=row.cells[col], v=c.dataset.v; return v===undefined?c.textContent:parseFloat(v);}
    rows.sort(function(a,b){
      var x=key(a), y=key(b), r;
      if(typeof x==='number'&&typeof y==='number'){
        if(isNaN(x)&&isNaN(y)) r=0; else if(isNaN(x)) return 1; else if(isNaN(y)) return -1; else r=x-y;
      } else r=String(x).localeCompare(String(y));
      return asc?r:-r;});
    rows.forEach(function(row){body.appendChild(row); var d=details(row); if(d) body.appendChild(d);});
  });});
apply();
})();
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
  std::string cls = std::string("op ") + (row.failed() ? "fail" : "pass");
  if (first) cls += " first";
  return cls;
}

std::string cell(const std::string& text, const char* cls = nullptr) {
  return std::string("<td") + (cls ? std::string(" class='") + cls + "'" : "") + ">" + html_escape(text) +
         "</td>";
}

// A number cell that sorts by value (NaN last whichever way).
std::string number_cell(double value) {
  const std::string sort_value = std::isnan(value) ? "NaN" : (std::isinf(value) ? (value > 0 ? "1e308" : "-1e308")
                                                                                  : format_number(value));
  return "<td data-v='" + sort_value + "'>" + html_escape(format_number(value)) + "</td>";
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string criteria_text(const NetworkComparison& comparison) {
  const ComparisonOptions& o = comparison.options;
  const std::string nonfinite = comparison.criteria.nonfinite_in_error_rate
                                    ? "; NaN/Inf mismatches count as failing elements"
                                    : "; any NaN/Inf on one side only fails";
  if (comparison.criteria.kind == CriteriaKind::Network)
    return "whole-network: CosineSimilarity >= " + format_number(kMsitCosineMinimum) +
           " and RelativeEuclideanDistance <= 10 epsilons of the precision computed in (float16 " +
           format_number(network_criteria(DType::Float16, false).relative_distance_maximum) + ", float32 " +
           format_number(network_criteria(DType::Float32, false).relative_distance_maximum) + ")" + nonfinite +
           " (element tolerances abs " + format_number(o.abs_tolerance) + ", rel " + format_number(o.rel_tolerance) +
           " reported, not deciding)";
  return "elements: abs " + format_number(o.abs_tolerance) + ", rel " + format_number(o.rel_tolerance) +
         ", error rate " + format_number(o.error_rate_threshold) + nonfinite;
}

constexpr const char* kColumns[] = {"#",          "NPUDump",   "OpType",     "Out",        "GroundTruth",
                                    "Cosine",     "RelEuclid", "MaxAbsErr",  "MeanAbsErr", "MaxRelErr",
                                    "MeanRelErr", "RMSE",      "KLD",        "ErrorRate",  "Result"};
constexpr std::size_t kColumnCount = sizeof kColumns / sizeof kColumns[0];

std::string operator_row(const NetworkComparison& comparison, std::size_t r, bool single) {
  const NetworkRow& row = comparison.rows[r];
  const std::string details_id = "details-" + std::to_string(r);
  const std::string op_type = row.actual_op_type.empty() ? row.golden_op_type : row.actual_op_type;
  const std::string search = lower(npu_dump_label(row) + " " + op_type + " " + ground_truth_label(row));
  std::string html = "<tr id='row-" + std::to_string(r) + "' class='" +
                     row_class(row, comparison.first_failing_row == r) + "' data-details='" + details_id +
                     "' data-search='" + html_escape(search) + "'><td data-v='" + std::to_string(r) + "'>" +
                     std::to_string(r) + "</td>" + cell(npu_dump_label(row), "name") + cell(op_type, "name") +
                     cell(row.output_index < 0 ? "*" : std::to_string(row.output_index)) +
                     cell(ground_truth_label(row), "name");
  if (row.comparison) {
    const MsitMetrics& m = row.comparison->metrics;
    for (const double value :
         {m.cosine_similarity, m.relative_euclidean_distance, m.max_absolute_error, m.mean_absolute_error,
          m.max_relative_error, m.mean_relative_error, m.root_mean_square_error, m.kullback_leibler_divergence,
          row.comparison->error_rate})
      html += number_cell(value);
    std::string label = result_label(row);
    for (const auto& name : row.comparison->error_classes) label += " " + name;
    html += cell(label, "result");
  } else {
    html += "<td colspan='9'></td>" + cell(result_label(row), "result");
  }
  html += "</tr>\n<tr id='" + details_id + "' class='details" + (single ? "" : " hidden") + "'><td colspan='" +
          std::to_string(kColumnCount) + "'>" + details_html(row) + "</td></tr>\n";
  return html;
}

// Golden-only and NPU-only rows: listed, out of the way.
std::string skipped_group(const NetworkComparison& comparison) {
  if (comparison.golden_only + comparison.actual_only == 0) return "";
  std::string html = "<details class='skipped'><summary>Not compared: " +
                     std::to_string(comparison.golden_only) + " golden-only and " +
                     std::to_string(comparison.actual_only) +
                     " NPU-only rows</summary><p>Golden nodes with no NPU output of their own (fused into a "
                     "kernel, which is compared at its last original node, or absent) and NPU tasks with no "
                     "golden counterpart (inserted by the compiler).</p><table class='ops skipped-rows'><tr><th>#</th>"
                     "<th>kind</th><th>node</th><th>OpType</th><th>Out</th><th>why</th></tr>\n";
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    const NetworkRow& row = comparison.rows[r];
    if (row.kind != RowKind::GoldenOnly && row.kind != RowKind::ActualOnly) continue;
    const bool golden = row.kind == RowKind::GoldenOnly;
    html += "<tr id='row-" + std::to_string(r) + "' class='skipped'>" + cell(std::to_string(r)) +
            cell(golden ? "golden-only" : "NPU-only", "name") +
            cell(golden ? row.golden_node : row.actual_node, "name") +
            cell(golden ? row.golden_op_type : row.actual_op_type, "name") +
            cell(row.output_index < 0 ? "*" : std::to_string(row.output_index)) + cell(row.note, "name") +
            "</tr>\n";
  }
  return html + "</table></details>\n";
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
  html += "<table class='meta'><tr><td>golden</td><td>" + html_escape(context.golden) +
          "</td></tr><tr><td>actual</td><td>" + html_escape(context.actual) + "</td></tr><tr><td>criteria</td><td>" +
          html_escape(criteria_text(comparison)) + "</td></tr><tr><td>rows</td><td>" +
          std::to_string(comparison.compared) + " compared, " + std::to_string(comparison.failed) + " failed, " +
          std::to_string(comparison.not_comparable) + " not comparable, " + std::to_string(comparison.actual_only) +
          " NPU-only, " + std::to_string(comparison.golden_only) + " golden-only</td></tr></table>\n";
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
  if (!single) {
    if (const std::string chart = summary_chart_svg(comparison); !chart.empty())
      html += "<h2>Along the network</h2>" + chart + "\n";
  }
  if (!comparison.first_failures.empty()) {
    html +=
        "<h2>First operator flagged by each criterion</h2><p>msit's analyser rules only flag an output; the criteria above decide pass or fail.</p><table "
        "class='ops'><tr><th>criterion</th><th>row</th><th>output</th><th>value</th></tr>";
    for (const FirstFailure& f : comparison.first_failures)
      html += "<tr>" + cell(f.criterion, "name") + "<td><a href='#row-" + std::to_string(f.row) + "'>" +
              std::to_string(f.row) + "</a></td>" + cell(tensor_index_label(comparison.rows[f.row]), "name") +
              cell(format_number(f.value)) + "</tr>";
    html += "</table>\n";
  }
  const std::int64_t listed = comparison.compared + comparison.not_comparable;
  html += "<h2>Operators (" + std::to_string(listed) + " compared)</h2>";
  if (!single)
    html +=
        "<div class='controls'><input type='search' id='filter' placeholder='filter by name or op type'>"
        "<label><input type='checkbox' id='failing-only'> failing only</label><span id='shown'></span>"
        "<span>click a header to sort, a row for its details</span></div>";
  html += "<table class='ops' id='ops'><thead><tr>";
  for (std::size_t c = 0; c < kColumnCount; ++c)
    html += std::string("<th") + (single ? "" : " class='sortable' data-col='" + std::to_string(c) + "'") + ">" +
            kColumns[c] + "</th>";
  html += "</tr></thead><tbody>\n";
  for (std::size_t r = 0; r < comparison.rows.size(); ++r)
    if (comparison.rows[r].kind == RowKind::Compared || comparison.rows[r].kind == RowKind::NotComparable)
      html += operator_row(comparison, r, single);
  html += "</tbody></table>\n" + skipped_group(comparison);
  html += "<script>" + std::string(kScript) + "</script>\n</body></html>\n";
  return html;
}

}  // namespace asc::validator
