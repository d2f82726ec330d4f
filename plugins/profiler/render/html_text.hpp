// Escaping for text placed in HTML and inline SVG.
#pragma once

#include <string>
#include <string_view>

namespace asc::profiler {

std::string html_escape(std::string_view text);
// At most `max_chars` characters (UTF-8 aware), with "..." when cut.
std::string shortened(std::string_view text, std::size_t max_chars);
// A category's colour in every chart and the timeline.
std::string category_color(std::string_view category);

}  // namespace asc::profiler
