// Small text helpers shared by the readers, rules and reports.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace asc::profiler {

std::string trim(std::string_view text);  // blanks, tabs and line ends at both ends
std::string to_lower(std::string_view text);
bool equal_ignoring_case(std::string_view a, std::string_view b);
bool starts_with_ignoring_case(std::string_view text, std::string_view prefix);
bool contains_ignoring_case(std::string_view text, std::string_view part);

// msprof's "not available" spellings: empty, "N/A", "NA", "-", "nan" (any case).
bool is_not_available(std::string_view text);

enum class NumberParse { Ok, NotAvailable, Invalid };
// Parses a decimal number after trimming (msprof pads some timestamps with a tab).
NumberParse parse_number(std::string_view text, double& value);

// "1234.5 us" style, for advice messages: fixed decimals, no exponent.
std::string format_fixed(double value, int decimals);
std::string format_us(double microseconds);   // "1234.50 us" (or "12.35 ms" from 10 ms up)
std::string format_percent(double fraction);  // 0.4231 -> "42.3%"

// Rounded for the JSON report: microseconds to 1 ns, fractions to 6 decimals.
double round_us(double microseconds);
double round_fraction(double fraction);

}  // namespace asc::profiler
