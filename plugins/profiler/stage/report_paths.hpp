// Which file each requested report format goes to.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace asc::profiler {

// Formats: "json", "html", "trace" (Chrome trace JSON). The format whose extension `output`
// has (.json, .html, .trace.json) is written to `output`; when none has it, the first listed
// format is. The others go beside it with their own extension (perf.json -> perf.html,
// perf.trace.json). A non-empty override names a format's file explicitly. EE5007 for an
// unknown or repeated format, or an empty list.
std::map<std::string, std::filesystem::path> report_paths(
    const std::filesystem::path& output, const std::vector<std::string>& formats,
    const std::map<std::string, std::filesystem::path>& overrides);

}  // namespace asc::profiler
