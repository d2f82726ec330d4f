#include "analysis/text_format.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace asc::profiler {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && to_lower(a) == to_lower(b);
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && equal_ignoring_case(text.substr(0, prefix.size()), prefix);
}

bool contains_ignoring_case(std::string_view text, std::string_view part) {
  return to_lower(text).find(to_lower(part)) != std::string::npos;
}

bool is_not_available(std::string_view text) {
  const std::string value = to_lower(trim(text));
  return value.empty() || value == "n/a" || value == "na" || value == "-" || value == "nan";
}

NumberParse parse_number(std::string_view text, double& value) {
  if (is_not_available(text)) return NumberParse::NotAvailable;
  const std::string clean = trim(text);
  const char* begin = clean.data();
  const char* end = begin + clean.size();
  if (*begin == '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return NumberParse::Invalid;
  return NumberParse::Ok;
}

std::string format_fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string format_us(double microseconds) {
  if (std::fabs(microseconds) >= 10000.0) return format_fixed(microseconds / 1000.0, 2) + " ms";
  return format_fixed(microseconds, 2) + " us";
}

std::string format_percent(double fraction) {
  return format_fixed(fraction * 100.0, 1) + "%";
}

double round_us(double microseconds) {
  return std::round(microseconds * 1000.0) / 1000.0;
}
double round_fraction(double fraction) {
  return std::round(fraction * 1e6) / 1e6;
}

}  // namespace asc::profiler
