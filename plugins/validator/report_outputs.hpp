// What both compare stages do at the end: print the terminal report and write the requested
// JSON/CSV/HTML reports (each atomically), recording them as pipeline artifacts.
#pragma once

#include <asc/sdk/pipeline.hpp>
#include <filesystem>
#include <span>

#include "report_common.hpp"

namespace asc::validator {

// The parameters shared by both stages: tolerances, the NaN/Inf opt-out and report outputs;
// whole_network adds `criteria` and leaves the tolerances without defaults (see criteria_from).
std::vector<ParamSpec> tolerance_and_report_params(bool whole_network);
// The tolerances given, the seed's defaults (1e-3, 1e-2, 0) for the others.
ComparisonOptions options_from(const StageParams& params);
// Network or Elements (criteria auto: Network unless a tolerance is given; no `criteria`
// parameter, as in compare_files: Elements) and the NaN/Inf opt-out. Throws EE5007 for an
// unknown criteria value.
VerdictCriteria criteria_from(const StageParams& params);

// Prints (unless print=false) and writes the reports named by the json/csv/html parameters.
// Returns the paths written, for error messages. EE4003 before anything is written when a
// report path is one of `inputs` (the compared files).
std::string publish_reports(PipelineContext& ctx, const StageParams& params, const NetworkComparison& comparison,
                            const ReportContext& context, std::span<const std::filesystem::path> inputs);

}  // namespace asc::validator
