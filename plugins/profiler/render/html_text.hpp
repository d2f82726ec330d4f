// Text helpers for the HTML report; escaping is asc::html_escape (the SDK's).
#pragma once

#include <string>
#include <string_view>

#include <asc/sdk/text_escape.hpp>

namespace asc::profiler {

// At most `max_chars` characters (UTF-8 aware), with "..." when cut.
std::string shortened(std::string_view text, std::size_t max_chars);
// A category's colour in every chart and the timeline.
std::string category_color(std::string_view category);

}  // namespace asc::profiler
