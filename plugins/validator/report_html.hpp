// The HTML report: one self-contained page (inline CSS, SVG and JS; no network access) with the
// per-operator table, the first failing operator highlighted, and per-operator details: the
// diagnosis, the error histogram, worst elements and where failures concentrate.
#pragma once

#include <string>

#include "report_common.hpp"

namespace asc::validator {

std::string render_html(const NetworkComparison& comparison, const ReportContext& context);

}  // namespace asc::validator
