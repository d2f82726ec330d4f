#include "text_format.hpp"

#include <cmath>
#include <cstdio>

namespace asc::validator {

std::string format_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string format_percent(double fraction) {
  const double percent = fraction * 100;
  char text[32];
  if (percent >= 99.5 && fraction < 1)  // not "100%" unless it is all
    std::snprintf(text, sizeof text, "%.4g%%", percent);
  else if (percent >= 10 || percent == 0)
    std::snprintf(text, sizeof text, "%.0f%%", percent);
  else if (percent >= 1)
    std::snprintf(text, sizeof text, "%.1f%%", percent);
  else
    std::snprintf(text, sizeof text, "%.3g%%", percent);
  return text;
}

}  // namespace asc::validator
