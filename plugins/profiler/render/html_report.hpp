// The self-contained HTML report (inline SVG, CSS and a little script; nothing fetched): summary,
// advice, top operators by device time, time per operator type, a timeline of tasks per stream
// and core, pipe utilisation, the health table, the operator table and the field definitions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace asc::profiler {

// From a modelTrade JSON report (report_json.hpp).
std::string render_html_report(const nlohmann::ordered_json& report);

}  // namespace asc::profiler
