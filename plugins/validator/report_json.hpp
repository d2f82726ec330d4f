// The JSON report: everything the comparison found, per row (docs/op_validate.md lists the fields).
#pragma once

#include <string>

#include "report_common.hpp"

namespace asc::validator {

// NaN and Infinity, which JSON cannot hold, are written as null.
std::string render_json(const NetworkComparison& comparison, const ReportContext& context);

}  // namespace asc::validator
