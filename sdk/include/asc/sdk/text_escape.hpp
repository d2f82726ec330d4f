// Escaping for the reports plugins write: CSV files and self-contained HTML pages (validator,
// profiler and the simulator's msprof files all use these). Since SDK 0.2.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace asc {

// A CSV field as RFC 4180 writes it: unchanged unless it holds a comma, a double quote, CR or
// LF; then in double quotes with inner quotes doubled.
std::string csv_field(std::string_view field);

// The fields as one CSV line: csv_field each, joined with ',', ending with '\n'.
std::string csv_line(const std::vector<std::string>& fields);

// Text safe inside HTML (elements and attribute values) and inline SVG: & < > " ' escaped.
std::string html_escape(std::string_view text);

}  // namespace asc
