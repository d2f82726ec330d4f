#include "report_html_chart.hpp"

#include <algorithm>
#include <asc/sdk/text_escape.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

#include "report_common.hpp"
#include "text_format.hpp"

namespace asc::validator {
namespace {

// viewBox units; the SVG scales to the page width.
constexpr double kWidth = 1000, kLeft = 78, kRight = 16;
constexpr double kCosineTop = 34, kErrorTop = 222, kPanelHeight = 140;
constexpr double kHeight = kErrorTop + kPanelHeight + 34;
// The cosine panel shows -log10(1 - cosine) from 0 (cosine 0) to 8 (1 - 1e-8 and above).
constexpr double kCosineDecades = 8;

std::string num(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

struct Point {
  std::size_t row = 0;
  const NetworkRow* data = nullptr;
  double x = 0;
};

double cosine_y(double cosine) {
  const double decades = std::clamp(-std::log10(std::max(1.0 - cosine, 1e-300)), 0.0, kCosineDecades);
  return kCosineTop + kPanelHeight * (1 - decades / kCosineDecades);
}

// The error panel's log10 range: the data's, at least two decades, whole decades.
struct LogRange {
  double low = -6, high = 0;
  double y(double value) const {
    if (!(value > 0)) return kErrorTop + kPanelHeight;
    const double e = std::clamp(std::log10(value), low, high);
    return kErrorTop + kPanelHeight * (1 - (e - low) / (high - low));
  }
};

LogRange error_range(const std::vector<Point>& points, const std::vector<double>& thresholds) {
  double low = 1e300, high = -1e300;
  auto see = [&](double v) {
    if (v > 0 && std::isfinite(v)) {
      low = std::min(low, std::log10(v));
      high = std::max(high, std::log10(v));
    }
  };
  for (const Point& p : points) {
    see(p.data->comparison->metrics.max_relative_error);
    see(p.data->comparison->metrics.relative_euclidean_distance);
  }
  for (const double t : thresholds) see(t);
  if (low > high) return {};
  LogRange range{std::floor(low), std::ceil(high)};
  if (range.high - range.low < 2) range.low = range.high - 2;
  return range;
}

std::string polyline(const std::vector<std::pair<double, double>>& xy, const char* colour, const char* dash) {
  if (xy.size() < 2) return "";
  std::string points;
  for (const auto& [x, y] : xy) points += num(x) + "," + num(y) + " ";
  return "<polyline fill='none' stroke='" + std::string(colour) + "' stroke-width='1.3'" +
         (dash ? std::string(" stroke-dasharray='") + dash + "'" : "") + " points='" + points + "'/>";
}

std::string text(double x, double y, const std::string& content, const char* anchor = "end", int size = 11) {
  return "<text x='" + num(x) + "' y='" + num(y) + "' font-size='" + std::to_string(size) + "' text-anchor='" +
         anchor + "'>" + html_escape(content) + "</text>";
}

std::string grid_line(double y) {
  return "<line x1='" + num(kLeft) + "' x2='" + num(kWidth - kRight) + "' y1='" + num(y) + "' y2='" + num(y) +
         "' stroke='#e4e4e4'/>";
}

std::string point_marks(const std::vector<Point>& points, double (*y_of)(const Point&, const LogRange&),
                        const LogRange& range, const char* colour, const std::string& series) {
  std::string svg;
  const double radius = points.size() > 150 ? 2 : 3;
  for (const Point& p : points) {
    const double y = y_of(p, range);
    if (!std::isfinite(y)) continue;
    const bool failed = p.data->failed();
    const MsitMetrics& m = p.data->comparison->metrics;
    svg += "<a href='#row-" + std::to_string(p.row) + "'><circle cx='" + num(p.x) + "' cy='" + num(y) + "' r='" +
           num(radius) + "' fill='" + (failed ? "#c62828" : colour) + "'><title>" +
           html_escape(tensor_index_label(*p.data) + " (" + p.data->actual_op_type + ") " + series +
                       ": cosine " + format_number(m.cosine_similarity) + ", MaxRelErr " +
                       format_number(m.max_relative_error) + ", RelDist " +
                       format_number(m.relative_euclidean_distance) + (failed ? ", FAIL" : ", pass")) +
           "</title></circle></a>";
  }
  return svg;
}

double cosine_of(const Point& p, const LogRange&) {
  const double c = p.data->comparison->metrics.cosine_similarity;
  return std::isnan(c) ? NAN : cosine_y(c);
}
double max_rel_of(const Point& p, const LogRange& range) {
  return range.y(p.data->comparison->metrics.max_relative_error);
}
double distance_of(const Point& p, const LogRange& range) {
  return range.y(p.data->comparison->metrics.relative_euclidean_distance);
}

}  // namespace

std::string summary_chart_svg(const NetworkComparison& comparison) {
  std::vector<Point> points;
  for (std::size_t r = 0; r < comparison.rows.size(); ++r)
    if (comparison.rows[r].comparison) points.push_back({r, &comparison.rows[r], 0});
  if (points.size() < 2) return "";
  const double span = kWidth - kLeft - kRight;
  for (std::size_t i = 0; i < points.size(); ++i)
    points[i].x = kLeft + span * static_cast<double>(i) / static_cast<double>(points.size() - 1);

  const bool network = comparison.criteria.kind == CriteriaKind::Network;
  // The relative-error thresholds: per point (the network tolerance follows each output's precision).
  std::vector<double> thresholds;
  for (const Point& p : points)
    thresholds.push_back(network ? p.data->comparison->criteria.relative_distance_maximum
                                 : comparison.options.rel_tolerance);
  const LogRange range = error_range(points, thresholds);

  std::string svg = "<svg class='summary' viewBox='0 0 " + num(kWidth) + " " + num(kHeight) +
                    "' role='img' aria-label='per-operator cosine similarity and relative error along the network'>";
  // Cosine panel: axis labels as cosine values.
  svg += text(kLeft, kCosineTop - 10, "CosineSimilarity (log scale toward 1)", "start", 12);
  for (const double decades : {0.0, 2.0, 4.0, 6.0, 8.0}) {
    const double y = kCosineTop + kPanelHeight * (1 - decades / kCosineDecades);
    svg += grid_line(y);
    svg += text(kLeft - 6, y + 4, decades == 0 ? "0" : "1-1e-" + std::to_string(static_cast<int>(decades)));
  }
  const double cosine_threshold = cosine_y(kMsitCosineMinimum);
  svg += "<line x1='" + num(kLeft) + "' x2='" + num(kWidth - kRight) + "' y1='" + num(cosine_threshold) + "' y2='" +
         num(cosine_threshold) + "' stroke='#c62828' stroke-dasharray='5 3'><title>msit's threshold: 0.99</title></line>";
  svg += text(kWidth - kRight, cosine_threshold - 4, "0.99", "end", 10);
  {
    std::vector<std::pair<double, double>> xy;
    for (const Point& p : points)
      if (const double y = cosine_of(p, range); std::isfinite(y)) xy.push_back({p.x, y});
    svg += polyline(xy, "#3949ab", nullptr);
  }
  svg += point_marks(points, cosine_of, range, "#3949ab", "cosine");

  // Error panel.
  svg += text(kLeft, kErrorTop - 10, "MaxRelativeError (orange) and RelativeEuclideanDistance (teal), log scale",
              "start", 12);
  for (double e = range.low; e <= range.high + 1e-9; e += std::max(1.0, std::floor((range.high - range.low) / 4))) {
    const double y = range.y(std::pow(10.0, e));
    svg += grid_line(y);
    svg += text(kLeft - 6, y + 4, "1e" + std::to_string(static_cast<int>(e)));
  }
  {
    std::vector<std::pair<double, double>> max_rel, distance, limit;
    for (std::size_t i = 0; i < points.size(); ++i) {
      max_rel.push_back({points[i].x, max_rel_of(points[i], range)});
      distance.push_back({points[i].x, distance_of(points[i], range)});
      limit.push_back({points[i].x, range.y(thresholds[i])});
    }
    svg += polyline(limit, "#c62828", "5 3");
    svg += polyline(max_rel, "#ef6c00", nullptr);
    svg += polyline(distance, "#00897b", nullptr);
  }
  svg += point_marks(points, max_rel_of, range, "#ef6c00", "MaxRelativeError");
  svg += point_marks(points, distance_of, range, "#00897b", "RelativeEuclideanDistance");
  svg += text(kWidth - kRight, kErrorTop + kPanelHeight + 14,
              network ? "dashed: the RelativeEuclideanDistance tolerance (10 epsilons of the precision)"
                      : "dashed: rel_tolerance (an element's relative error)",
              "end", 10);

  // The first failing operator.
  if (comparison.first_failing_row) {
    const auto found = std::find_if(points.begin(), points.end(),
                                    [&](const Point& p) { return p.row == *comparison.first_failing_row; });
    if (found != points.end()) {
      svg += "<line class='first-divergent' x1='" + num(found->x) + "' x2='" + num(found->x) + "' y1='" +
             num(kCosineTop - 4) + "' y2='" + num(kErrorTop + kPanelHeight) +
             "' stroke='#c62828' stroke-width='2'/>";
      const bool right_half = found->x > kWidth / 2;
      svg += text(found->x + (right_half ? -5 : 5), kCosineTop + 12,
                  "first failing: " + tensor_index_label(*found->data), right_half ? "end" : "start", 12);
    }
  }
  svg += text(kLeft, kHeight - 6, "operators in execution order (" + std::to_string(points.size()) + " compared)",
              "start", 10);
  return svg + "</svg>";
}

}  // namespace asc::validator
