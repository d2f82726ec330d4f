#include "render/svg_charts.hpp"

#include <algorithm>

#include "analysis/text_format.hpp"
#include "render/html_text.hpp"

namespace asc::profiler {
namespace {

constexpr int kWidth = 1180, kLabelWidth = 360, kBarArea = 620, kRow = 22, kBarHeight = 15, kTop = 4;
constexpr std::size_t kLabelChars = 50;

}  // namespace

std::string bar_chart_svg(const std::vector<Bar>& bars, const std::string& chart_class, double scale_max) {
  double longest = 0;
  for (const Bar& bar : bars) {
    double total = 0;
    for (const BarSegment& segment : bar.segments) total += std::max(0.0, segment.value);
    longest = std::max(longest, total);
  }
  const double scale = scale_max > 0 ? scale_max : longest;
  const int height = kTop * 2 + kRow * static_cast<int>(bars.size());
  std::string svg = "<svg xmlns='http://www.w3.org/2000/svg' class='" + chart_class + "' width='" +
                    std::to_string(kWidth) + "' height='" + std::to_string(height) + "' role='img'>";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& bar = bars[i];
    const int y = kTop + kRow * static_cast<int>(i);
    svg += "<g><title>" + html_escape(bar.tooltip) + "</title>";
    svg += "<text x='" + std::to_string(kLabelWidth - 8) + "' y='" + std::to_string(y + kBarHeight - 3) +
           "' text-anchor='end' class='label'>" + html_escape(shortened(bar.label, kLabelChars)) + "</text>";
    svg += "<rect class='track' x='" + std::to_string(kLabelWidth) + "' y='" + std::to_string(y) +
           "' width='" + std::to_string(kBarArea) + "' height='" + std::to_string(kBarHeight) + "'/>";
    double x = kLabelWidth;
    for (const BarSegment& segment : bar.segments) {
      const double width = scale > 0 ? std::max(0.0, segment.value) / scale * kBarArea : 0;
      svg += "<rect class='bar' x='" + format_fixed(x, 1) + "' y='" + std::to_string(y) + "' width='" +
             format_fixed(width, 1) + "' height='" + std::to_string(kBarHeight) + "' fill='" + segment.color +
             "'/>";
      x += width;
    }
    svg += "<text x='" + format_fixed(x + 6, 1) + "' y='" + std::to_string(y + kBarHeight - 3) +
           "' class='value'>" + html_escape(bar.value_text) + "</text></g>";
  }
  return svg + "</svg>";
}

}  // namespace asc::profiler
