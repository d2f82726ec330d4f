// The HTML report's timeline: one lane per stream and core type, one bar per task from its start
// to its end, drawn as inline SVG (readable without script; report_script() adds zoom).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace asc::profiler {

// From the report's "timeline" and "tasks" sections.
std::string timeline_html(const nlohmann::ordered_json& report);
// The zoom buttons' script (re-positions the task bars and the time axis).
const char* timeline_script();

}  // namespace asc::profiler
