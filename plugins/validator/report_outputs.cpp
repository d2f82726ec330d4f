#include "report_outputs.hpp"

#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>
#include <iostream>
#include <utility>

#include "report_csv.hpp"
#include "report_html.hpp"
#include "report_json.hpp"
#include "report_text.hpp"

namespace asc::validator {

std::vector<ParamSpec> tolerance_and_report_params() {
  return {
      {"abs_tolerance", ParamType::Float, false, "0.001",
       "an element fails when |actual - golden| exceeds this"},
      {"rel_tolerance", ParamType::Float, false, "0.01",
       "... or when |actual - golden| / (|golden| + 1e-12) exceeds this"},
      {"error_rate_threshold", ParamType::Float, false, "0",
       "pass when the failing fraction is at most this (0: no element may fail)"},
      {"json", ParamType::Path, false, "", "write the JSON report here"},
      {"csv", ParamType::Path, false, "", "write the CSV report (msit compare's columns) here"},
      {"html", ParamType::Path, false, "", "write the self-contained HTML report here"},
      {"print", ParamType::Bool, false, "true", "print the metrics table and diagnosis to stdout"},
  };
}

ComparisonOptions options_from(const StageParams& params) {
  ComparisonOptions options;
  options.abs_tolerance = params.get_float("abs_tolerance");
  options.rel_tolerance = params.get_float("rel_tolerance");
  options.error_rate_threshold = params.get_float("error_rate_threshold");
  return options;
}

std::string publish_reports(PipelineContext& ctx, const StageParams& params, const NetworkComparison& comparison,
                            const ReportContext& context, std::span<const std::filesystem::path> inputs) {
  for (const auto& [param, label] : {std::pair{"json", "the JSON report"}, {"csv", "the CSV report"}, {"html", "the HTML report"}})
    if (params.has(param) && !params.get_string(param).empty())
      refuse_output_over_inputs(params.get_path(param), inputs, label);
  if (params.get_bool("print")) std::cout << render_text(comparison, context) << std::flush;
  std::string written;
  auto write = [&](const char* param, const char* artifact, auto&& render) {
    if (!params.has(param) || params.get_string(param).empty()) return;  // empty: not requested
    const std::filesystem::path path = params.get_path(param);
    write_text_atomically(path, render());
    ctx.artifacts[artifact] = path;
    written += (written.empty() ? "" : ", ") + path.string();
    log_info("validator: wrote " + path.string());
  };
  write("json", "validation_json", [&] { return render_json(comparison, context); });
  write("csv", "validation_csv", [&] { return render_csv(comparison); });
  write("html", "validation_html", [&] { return render_html(comparison, context); });
  return written;
}

}  // namespace asc::validator
