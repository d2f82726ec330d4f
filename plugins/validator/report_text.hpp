// The terminal report: the metrics table and the diagnosis.
#pragma once

#include <string>

#include "report_common.hpp"

namespace asc::validator {

std::string render_text(const NetworkComparison& comparison, const ReportContext& context);

}  // namespace asc::validator
