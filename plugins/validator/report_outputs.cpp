#include "report_outputs.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>
#include <iostream>
#include <utility>

#include "report_csv.hpp"
#include "report_html.hpp"
#include "report_json.hpp"
#include "report_text.hpp"

namespace asc::validator {

namespace {

// A tolerance parameter given with a value (the whole-network stage leaves them unset by default).
bool given(const StageParams& params, const char* name) {
  return params.has(name) && !params.get_string(name).empty();
}

}  // namespace

std::vector<ParamSpec> tolerance_and_report_params(bool whole_network) {
  // Whole networks: no tolerance defaults, so that the stage can tell the seed's explicit
  // tolerances (criteria=auto -> elements) from none (-> network); text, so that a pipeline can
  // pass an empty variable for "not given" (a number is checked when the stage reads it).
  const ParamType tolerance_type = whole_network ? ParamType::String : ParamType::Float;
  auto tolerance_default = [&](const char* value) { return whole_network ? std::string() : std::string(value); };
  const std::string unset = whole_network ? "; empty: not given" : "";
  std::vector<ParamSpec> params{
      {"abs_tolerance", tolerance_type, false, tolerance_default("0.001"),
       "an element fails when |actual - golden| exceeds this (default 0.001" + unset + ")"},
      {"rel_tolerance", tolerance_type, false, tolerance_default("0.01"),
       "... or when |actual - golden| / (|golden| + 1e-12) exceeds this (default 0.01" + unset + ")"},
      {"error_rate_threshold", tolerance_type, false, tolerance_default("0"),
       "pass when the failing fraction is at most this (default 0: no element may fail" + unset + ")"},
      {"nonfinite_in_error_rate", ParamType::Bool, false, "false",
       "count NaN/Inf on one side only as ordinary failing elements (under error_rate_threshold) instead "
       "of failing the comparison outright"},
      {"json", ParamType::Path, false, "", "write the JSON report here"},
      {"csv", ParamType::Path, false, "", "write the CSV report (msit compare's columns) here"},
      {"html", ParamType::Path, false, "", "write the self-contained HTML report here"},
      {"print", ParamType::Bool, false, "true", "print the metrics table and diagnosis to stdout"},
  };
  if (whole_network)
    params.insert(params.begin(),
                  {"criteria", ParamType::String, false, "auto",
                   "what decides each output's verdict: network (CosineSimilarity and RelativeEuclideanDistance "
                   "against a tolerance set by the precision), elements (the tolerances above), or auto: "
                   "elements when a tolerance or error_rate_threshold is given, else network"});
  return params;
}

ComparisonOptions options_from(const StageParams& params) {
  ComparisonOptions options;
  if (given(params, "abs_tolerance")) options.abs_tolerance = params.get_float("abs_tolerance");
  if (given(params, "rel_tolerance")) options.rel_tolerance = params.get_float("rel_tolerance");
  if (given(params, "error_rate_threshold"))
    options.error_rate_threshold = params.get_float("error_rate_threshold");
  return options;
}

VerdictCriteria criteria_from(const StageParams& params) {
  VerdictCriteria criteria;
  criteria.nonfinite_in_error_rate = params.has("nonfinite_in_error_rate") &&
                                     params.get_bool("nonfinite_in_error_rate");
  const std::string kind = params.has("criteria") ? params.get_string("criteria") : "elements";
  if (kind == "network" ||
      (kind == "auto" && !given(params, "abs_tolerance") && !given(params, "rel_tolerance") &&
       !given(params, "error_rate_threshold"))) {
    criteria.kind = CriteriaKind::Network;
  } else if (kind != "elements" && kind != "auto") {
    throw Error(ErrorCode::ConfigBadValue,
                "criteria '" + kind + "' is not one of auto, network, elements (docs/op_validate.md)");
  }
  return criteria;
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
