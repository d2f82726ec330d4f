#include "stage/analyse_stage.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <iostream>

#include "analysis/model_trade_profiler.hpp"
#include "analysis/text_format.hpp"
#include "msprof/msprof_reader.hpp"
#include "render/chrome_trace.hpp"
#include "render/html_report.hpp"
#include "stage/report_paths.hpp"

namespace asc::profiler {
namespace {

using Json = nlohmann::ordered_json;

std::string optional_text(const StageParams& params, const std::string& name) {
  return params.has(name) ? trim(params.get_string(name)) : std::string();
}

// The first lines of the analysis for a terminal: totals, top operators, advice, files.
void print_summary(const Json& report, const std::map<std::string, std::filesystem::path>& paths) {
  std::cout << "modelTrade: " << report.at("model_name").get<std::string>() << " ("
            << report.at("soc_version").get<std::string>()
            << "): " << report.at("task_count").get<std::size_t>() << " tasks, "
            << report.at("operator_count").get<std::size_t>() << " operators, total_time "
            << format_us(report.at("total_time").get<double>()) << ", compute_time_ratio "
            << format_fixed(report.at("compute_time_ratio").get<double>(), 3) << "\n";
  // A simulated profile says how far its times are from real cards'.
  if (const auto source = report.find("source"); source != report.end() && source->contains("profiled_model")) {
    const Json& profiled = source->at("profiled_model");
    if (const auto band = profiled.find("timing_accuracy"); band != profiled.end() && !band->get<std::string>().empty())
      std::cout << "times simulated; " << band->get<std::string>() << "\n";
  }
  std::size_t shown = 0;
  for (const Json& op : report.at("op_summary")) {
    if (shown++ == 5) break;
    std::cout << "  " << shown << ". " << op.at("op_name").get<std::string>() << " ("
              << op.at("op_type").get<std::string>() << ") " << format_us(op.at("device_time").get<double>())
              << " " << format_percent(op.at("ratio").get<double>()) << "\n";
  }
  for (const Json& check : report.at("health"))
    if (check.at("status") == "not measured")
      std::cout << "health: " << check.at("metric").get<std::string>() << " not measured ("
                << check.at("basis").get<std::string>() << ")\n";
  for (const Json& item : report.at("advice"))
    std::cout << "[" << item.at("severity").get<std::string>() << "] " << item.at("rule").get<std::string>()
              << ": " << item.at("message").get<std::string>() << "\n";
  if (report.at("advice").empty()) std::cout << "no rule fired\n";
  for (const auto& [format, path] : paths)
    std::cout << "wrote " << format << " report: " << path.string() << "\n";
}

void run(PipelineContext& context, const StageParams& params) {
  AnalysisOptions options;
  options.ddr_peak_bandwidth_gbps = params.get_float("ddr_peak_bandwidth");
  if (options.ddr_peak_bandwidth_gbps < 0)
    throw Error(ErrorCode::ConfigBadValue, "ddr_peak_bandwidth must be >= 0 GB/s (0 = unknown)");

  ProfileTrace trace;
  Json source;
  std::vector<std::filesystem::path> inputs;  // the profile's files, which no report may replace
  const std::string report = optional_text(params, "report");
  if (report.empty()) {
    trace = context.profile;
    if (trace.events.empty())
      throw Error(
          ErrorCode::ConfigMissingKey,
          "profiler.analyse has no profile: give 'report' (an msprof directory), or run a backend stage "
          "with profiling on before it");
  } else {
    MsprofProfile profile = read_msprof_profile(report);
    source = source_section(profile);
    for (const SourceFile& file : profile.files) inputs.push_back(file.path);
    trace = std::move(profile.trace);
  }
  if (const std::string name = optional_text(params, "model_name"); !name.empty()) trace.model_name = name;
  if (const std::string soc = optional_text(params, "soc_version"); !soc.empty()) trace.soc_version = soc;

  std::vector<std::string> formats;
  for (const std::string& format : params.get_list("format")) formats.push_back(to_lower(format));
  std::map<std::string, std::filesystem::path> overrides;
  for (const auto& [format, param] :
       {std::pair<std::string, std::string>{"html", "html_output"}, {"trace", "trace_output"}})
    if (const std::string path = optional_text(params, param); !path.empty()) {
      overrides[format] = path;
      if (std::find(formats.begin(), formats.end(), format) == formats.end()) formats.push_back(format);
    }
  const auto paths = report_paths(params.get_path("output"), formats, overrides);
  for (const auto& [format, path] : paths) refuse_output_over_inputs(path, inputs, "the " + format + " report");

  const ProfileAnalysis analysis = ModelTradeProfiler(options).analyse(trace, source);
  const Json document = Json::parse(analysis.json_report);
  for (const auto& [format, path] : paths) {
    if (format == "json") write_text_atomically(path, analysis.json_report + "\n");
    if (format == "html") write_text_atomically(path, render_html_report(document));
    if (format == "trace") write_text_atomically(path, chrome_trace(document).dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
    context.artifacts["model_trade_" + format] = path;
  }
  if (params.get_bool("print")) print_summary(document, paths);
}

}  // namespace

StageDefinition analyse_stage() {
  StageDefinition stage;
  stage.name = "profiler.analyse";
  stage.description =
      "modelTrade: analyse a profile (msprof op_summary CSVs, or the events earlier stages collected) and "
      "write "
      "the JSON / HTML / Chrome-trace reports with optimisation advice";
  stage.params = {
      {"report", ParamType::Path, false, "",
       "msprof directory: PROF_*, its mindstudio_profiler_output/, a parent holding one PROF_*, or an "
       "op_summary_*.csv; empty = the profile collected by earlier stages"},
      {"output", ParamType::Path, false, "perf.json", "report file (other formats go beside it)"},
      {"format", ParamType::StringList, false, "json", "json, html, trace (comma-separated)"},
      {"html_output", ParamType::Path, false, "", "HTML report file (implies format html)"},
      {"trace_output", ParamType::Path, false, "", "Chrome trace file (implies format trace)"},
      {"model_name", ParamType::String, false, "", "model name for the report (default: from the data)"},
      {"soc_version", ParamType::String, false, "", "SoC for the report, e.g. Ascend310P3"},
      {"ddr_peak_bandwidth", ParamType::Float, false, "0",
       "device peak DDR bandwidth in GB/s, to judge DDR bandwidth utilisation (0 = unknown)"},
      {"print", ParamType::Bool, false, "true", "print the summary and advice to stdout"},
  };
  stage.run = run;
  return stage;
}

}  // namespace asc::profiler
