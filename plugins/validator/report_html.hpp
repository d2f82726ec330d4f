// The HTML report: one self-contained page (inline CSS, SVG and JS; no network access): the
// criteria, the first failing operator, a chart of cosine and relative error along the network
// (report_html_chart.hpp), the compared operators in execution order (filter, "failing only",
// sort by any column; a click opens the diagnosis, error histogram, worst elements and where
// failures concentrate), then golden-only and NPU-only rows folded into one collapsed group.
#pragma once

#include <string>

#include "report_common.hpp"

namespace asc::validator {

std::string render_html(const NetworkComparison& comparison, const ReportContext& context);

}  // namespace asc::validator
