// The HTML report's summary chart: every compared output along the network (golden execution
// order), its CosineSimilarity in one panel and its MaxRelativeError and RelativeEuclideanDistance
// in another, the criteria's thresholds dashed and the first failing operator marked. Inline SVG;
// each point links to its table row and names it in a tooltip.
#pragma once

#include <string>

#include "network_comparison.hpp"

namespace asc::validator {

// Empty when fewer than two outputs were compared (nothing to draw a line through).
std::string summary_chart_svg(const NetworkComparison& comparison);

}  // namespace asc::validator
