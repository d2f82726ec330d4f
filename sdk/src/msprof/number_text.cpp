#include "asc/sdk/msprof/number_text.hpp"

#include <cstdio>

namespace asc::msprof {

std::string msprof_number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3f", value);
  return buffer;
}

}  // namespace asc::msprof
