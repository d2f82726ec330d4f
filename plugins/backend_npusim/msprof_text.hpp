// Text conventions shared by the msprof-style files: CSV lines (fields quoted only when they hold
// a comma, quote or newline) and numbers with msprof's three decimals.
#pragma once

#include <string>
#include <vector>

namespace asc::npusim {

std::string msprof_number(double value);                       // "12.345"
std::string csv_line(const std::vector<std::string>& fields);  // ends with '\n'

}  // namespace asc::npusim
