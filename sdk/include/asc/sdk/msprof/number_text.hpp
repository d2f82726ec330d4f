// Text conventions shared by the msprof-style files: numbers with msprof's three decimals; CSV
// lines are asc::csv_line (fields quoted only when they hold a comma, quote or newline).
#pragma once

#include <string>

#include "asc/sdk/text_escape.hpp"

namespace asc::msprof {

std::string msprof_number(double value);  // "12.345"

}  // namespace asc::msprof
