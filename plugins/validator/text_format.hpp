// Number formatting shared by the diagnosis and the reports.
#pragma once

#include <string>

namespace asc::validator {

// %.6g, with "NaN", "Inf" and "-Inf" spelt as msaccucmp spells them.
std::string format_number(double value);
// A fraction as a percentage: "83%", "4.2%", "0.0154%".
std::string format_percent(double fraction);

}  // namespace asc::validator
