#include "stage/report_paths.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>

namespace asc::profiler {
namespace {

const std::map<std::string, std::string>& extensions() {
  static const std::map<std::string, std::string> map{
      {"json", ".json"}, {"html", ".html"}, {"trace", ".trace.json"}};
  return map;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The extension `path` ends with among the formats' ones, longest first (".trace.json" before
// ".json"), or "" when none.
std::string format_of(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  if (ends_with(name, ".trace.json")) return "trace";
  if (ends_with(name, ".json")) return "json";
  if (ends_with(name, ".html")) return "html";
  return "";
}

std::filesystem::path without_extension(const std::filesystem::path& path) {
  std::string text = path.string();
  for (const char* suffix : {".trace.json", ".json", ".html"})
    if (ends_with(text, suffix)) return text.substr(0, text.size() - std::string(suffix).size());
  return path.parent_path() / path.stem();
}

}  // namespace

std::map<std::string, std::filesystem::path> report_paths(
    const std::filesystem::path& output, const std::vector<std::string>& formats,
    const std::map<std::string, std::filesystem::path>& overrides) {
  if (formats.empty())
    throw Error(ErrorCode::ConfigBadValue, "format is empty: give one or more of json, html, trace");
  for (std::size_t i = 0; i < formats.size(); ++i) {
    if (extensions().count(formats[i]) == 0)
      throw Error(ErrorCode::ConfigBadValue,
                  "unknown report format '" + formats[i] + "': use json, html or trace");
    if (std::find(formats.begin(), formats.begin() + static_cast<long>(i), formats[i]) !=
        formats.begin() + static_cast<long>(i))
      throw Error(ErrorCode::ConfigBadValue, "report format '" + formats[i] + "' is listed twice");
  }
  const std::string own = format_of(output);
  const std::string primary =
      std::find(formats.begin(), formats.end(), own) != formats.end() ? own : formats.front();
  std::map<std::string, std::filesystem::path> paths;
  for (const std::string& format : formats) {
    if (const auto it = overrides.find(format); it != overrides.end() && !it->second.empty())
      paths[format] = it->second;
    else if (format == primary)
      paths[format] = output;
    else
      paths[format] = without_extension(output).string() + extensions().at(format);
  }
  return paths;
}

}  // namespace asc::profiler
