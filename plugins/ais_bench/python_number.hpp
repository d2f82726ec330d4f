// Numbers printed the way ais_bench (Python) prints them, so its summary lines and JSON read the same.
#pragma once

#include <string>

namespace asc::bench {

// Python's repr(float): the shortest text that reads back to `value`, fixed notation for
// decimal exponents -4..15 with at least one fractional digit ("1.0", "0.0123"), scientific
// otherwise ("1e-05", "1.5e+16"); "nan", "inf", "-inf".
std::string python_float(double value);

}  // namespace asc::bench
