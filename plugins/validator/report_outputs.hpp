// What both compare stages do at the end: print the terminal report and write the requested
// JSON/CSV/HTML reports (each atomically), recording them as pipeline artifacts.
#pragma once

#include <asc/sdk/pipeline.hpp>
#include <filesystem>
#include <span>

#include "report_common.hpp"

namespace asc::validator {

// The parameters shared by both stages: tolerances and report outputs.
std::vector<ParamSpec> tolerance_and_report_params();
ComparisonOptions options_from(const StageParams& params);

// Prints (unless print=false) and writes the reports named by the json/csv/html parameters.
// Returns the paths written, for error messages. EE4003 before anything is written when a
// report path is one of `inputs` (the compared files).
std::string publish_reports(PipelineContext& ctx, const StageParams& params, const NetworkComparison& comparison,
                            const ReportContext& context, std::span<const std::filesystem::path> inputs);

}  // namespace asc::validator
