// Horizontal bar charts as inline SVG (no script needed to read them).
#pragma once

#include <string>
#include <vector>

namespace asc::profiler {

struct BarSegment {
  double value = 0;
  std::string color;
};

struct Bar {
  std::string label;                 // left of the bar (shortened to fit)
  std::string tooltip;               // full text on hover
  std::vector<BarSegment> segments;  // stacked left to right
  std::string value_text;            // right of the bar
};

// Bars scaled so that `scale_max` (or the longest bar when 0) spans the bar area. Each bar is an
// SVG <rect class="bar"> per segment; `chart_class` goes on the <svg>.
std::string bar_chart_svg(const std::vector<Bar>& bars, const std::string& chart_class, double scale_max = 0);

}  // namespace asc::profiler
