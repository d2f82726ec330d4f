#include "render/html_report.hpp"

#include <map>

#include "analysis/text_format.hpp"
#include "render/html_text.hpp"
#include "render/html_timeline.hpp"
#include "render/svg_charts.hpp"

namespace asc::profiler {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kTopBars = 20;
constexpr std::size_t kTypeBars = 20;
constexpr const char* kMemoryCopyColor = "#f28e2b";
constexpr const char* kComputeColor = "#4e79a7";

constexpr const char* kStyle = R"CSS(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:1220px;margin:0 auto;padding:18px 20px 40px}
h1{font-size:1.5em;margin:0 0 .2em} h2{font-size:1.15em;margin:1.6em 0 .5em;border-bottom:1px solid #d8dee4;padding-bottom:.2em}
.sub{color:#59636e;margin:0 0 1em}
.cards{display:flex;flex-wrap:wrap;gap:10px}
.card{border:1px solid #d8dee4;border-radius:6px;padding:8px 14px;min-width:150px}
.card b{display:block;font-size:1.35em} .card span{color:#59636e;font-size:12px}
ul.advice{list-style:none;padding:0;margin:0}
ul.advice li{border-left:5px solid #9c9c9c;background:#f6f8fa;margin:6px 0;padding:6px 10px}
ul.advice li.warning{border-color:#d4a72c;background:#fff8c5} ul.advice li.critical{border-color:#cf222e;background:#ffebe9}
ul.advice li.info{border-color:#0969da;background:#ddf4ff}
.sev{font-weight:bold;text-transform:uppercase;font-size:11px;margin-right:6px} .rule{font-family:monospace;margin-right:6px}
svg text{font:12px system-ui,sans-serif;fill:#1f2328} svg text.value{fill:#59636e}
rect.track{fill:#f3f4f6}
.legend{font-size:12px;color:#59636e;margin:4px 0} .legend i{display:inline-block;width:11px;height:11px;margin:0 4px 0 12px;vertical-align:-1px}
.timeline-box{display:flex;border:1px solid #d8dee4;border-radius:6px}
.timeline-scroll{overflow-x:auto;flex:1}
rect.lane.even{fill:#fafbfc} rect.lane.odd{fill:#f1f3f5}
line.grid{stroke:#d0d7de;stroke-width:1} text.tick{font-size:11px;fill:#59636e}
rect.task{stroke:#fff;stroke-width:.3} rect.task:hover{stroke:#000;stroke-width:1}
.zoom{margin:4px 0 6px} .zoom button{min-width:2.2em} .note{color:#59636e;font-size:12px;margin-left:10px}
table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #d8dee4;padding:3px 7px;text-align:right;vertical-align:top}
th{background:#f6f8fa;position:sticky;top:0;text-align:center} td.t{text-align:left} td.mono{font-family:monospace;text-align:left;max-width:360px;overflow-wrap:anywhere}
.status-healthy{color:#1a7f37;font-weight:bold} .status-unhealthy{color:#cf222e;font-weight:bold} .status-not{color:#59636e}
dl.fields dt{font-family:monospace;margin-top:6px} dl.fields dd{margin-left:18px;color:#3d444d}
)CSS";

std::string number(const Json& value, int decimals) {
  return value.is_number() ? format_fixed(value.get<double>(), decimals) : std::string("n/a");
}

std::string card(const std::string& value, const std::string& caption) {
  return "<div class='card'><b>" + html_escape(value) + "</b><span>" + html_escape(caption) + "</span></div>";
}

std::string summary(const Json& report) {
  const double total = report.at("total_time").get<double>();
  std::string html = "<div class='cards'>";
  html += card(format_us(total), "total_time (sum of task durations)");
  html += card(format_fixed(report.at("compute_time_ratio").get<double>(), 3), "compute_time_ratio");
  html += card(format_us(report.at("memory_copy_time").get<double>()), "memory_copy_time");
  html += card(std::to_string(report.at("operator_count").get<std::size_t>()) + " / " +
                   std::to_string(report.at("task_count").get<std::size_t>()),
               "operators / tasks");
  html +=
      card(format_percent(report.at("top_operators").at("share").get<double>()), "top-5 operators' share");
  html += card(format_us(report.at("timeline").at("span").get<double>()), "timeline span");
  return html + "</div>";
}

std::string advice_list(const Json& report) {
  const Json& advice = report.at("advice");
  if (advice.empty()) return "<p>No rule fired: none of the checked bottlenecks shows in this profile.</p>";
  std::string html = "<ul class='advice'>";
  for (const Json& item : advice) {
    const std::string severity = item.at("severity").get<std::string>();
    html += "<li class='" + html_escape(severity) + "'><span class='sev'>" + html_escape(severity) +
            "</span><span class='rule'>" + html_escape(item.at("rule").get<std::string>()) + "</span>" +
            html_escape(item.at("message").get<std::string>()) + "</li>";
  }
  return html + "</ul>";
}

std::string legend(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string html = "<div class='legend'>";
  for (const auto& [name, color] : entries)
    html += "<i style='background:" + color + "'></i>" + html_escape(name);
  return html + "</div>";
}

std::string top_operators_chart(const Json& report) {
  std::vector<Bar> bars;
  for (const Json& op : report.at("op_summary")) {
    if (bars.size() == kTopBars) break;
    const double device = op.at("device_time").get<double>(), copy = op.at("memory_copy_time").get<double>();
    const std::string name = op.at("op_name").get<std::string>(), type = op.at("op_type").get<std::string>();
    bars.push_back({name + " (" + type + ")",
                    name + " (" + type + "): " + format_us(device) + ", memory copy " + format_us(copy),
                    {{device - copy, kComputeColor}, {copy, kMemoryCopyColor}},
                    format_us(device) + "  " + format_percent(op.at("ratio").get<double>())});
  }
  return legend({{"compute", kComputeColor}, {"memory copy", kMemoryCopyColor}}) +
         bar_chart_svg(bars, "chart top-ops");
}

std::string type_chart(const Json& report) {
  std::map<std::string, std::string> category_of_type;
  for (const Json& task : report.at("tasks"))
    category_of_type.emplace(task.at("op_type").get<std::string>(), task.at("category").get<std::string>());
  std::vector<Bar> bars;
  for (const Json& type : report.at("op_type_statistics")) {
    if (bars.size() == kTypeBars) break;
    const std::string name = type.at("op_type").get<std::string>();
    const double total = type.at("total_time").get<double>();
    const std::size_t count = type.at("count").get<std::size_t>();
    bars.push_back({name,
                    name + ": " + std::to_string(count) + " tasks, mean " +
                        format_us(type.at("mean_time").get<double>()) + ", max " +
                        format_us(type.at("max_time").get<double>()),
                    {{total, category_color(category_of_type[name])}},
                    format_us(total) + "  " + format_percent(type.at("ratio").get<double>()) + "  x" +
                        std::to_string(count)});
  }
  return bar_chart_svg(bars, "chart types");
}

std::string category_legend() {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const char* category : {"cube", "vector", "data_movement", "memcpy", "aicpu", "communication"})
    entries.emplace_back(category, category_color(category));
  return legend(entries);
}

std::string pipe_chart(const Json& report) {
  const Json& pipes = report.at("pipe_utilization");
  std::vector<Bar> bars;
  for (const auto& [pipe, value] : pipes.items()) {
    if (pipe == "coverage") continue;
    const bool measured = value.is_number();
    const double ratio = measured ? value.get<double>() : 0;
    const std::string color = pipe == "mac"             ? "#4e79a7"
                              : pipe.starts_with("mte") ? kMemoryCopyColor
                                                        : "#59a14f";
    bars.push_back({pipe,
                    pipe + (measured ? ": busy " + format_percent(ratio) : ": not measured"),
                    {{ratio, color}},
                    measured ? format_percent(ratio) : "not measured"});
  }
  return "<p class='sub'>Time-weighted over the " + format_percent(pipes.at("coverage").get<double>()) +
         " of device time whose tasks carry PMU data.</p>" + bar_chart_svg(bars, "chart pipes", 1.0);
}

std::string health_table(const Json& report) {
  std::string html =
      "<table class='health'><tr><th>metric</th><th>healthy "
      "when</th><th>value</th><th>status</th><th>basis</th></tr>";
  for (const Json& check : report.at("health")) {
    const std::string status = check.at("status").get<std::string>();
    const bool fraction = check.at("unit").get<std::string>() == "fraction";
    const std::string value = !check.at("value").is_number() ? "—"
                              : fraction                     ? format_percent(check.at("value").get<double>())
                                                             : format_us(check.at("value").get<double>());
    html += "<tr><td class='t'>" + html_escape(check.at("metric").get<std::string>()) + "</td><td>" +
            html_escape(check.at("healthy_when").get<std::string>()) + "</td><td>" + value +
            "</td><td class='t status-" + (status == "not measured" ? std::string("not") : status) + "'>" +
            html_escape(status) + "</td><td class='t'>" + html_escape(check.at("basis").get<std::string>()) +
            "</td></tr>";
  }
  return html + "</table>";
}

std::string operator_table(const Json& report) {
  std::map<std::string, const Json*> first_task;
  for (const Json& task : report.at("tasks"))
    first_task.emplace(task.at("op_name").get<std::string>(), &task);
  std::string html =
      "<table class='ops'><tr><th>#</th><th>op_name</th><th>op_type</th><th>device_time (us)</th>"
      "<th>memory_copy_time (us)</th><th>ratio</th><th>input shapes</th></tr>";
  std::size_t rank = 0;
  for (const Json& op : report.at("op_summary")) {
    const std::string name = op.at("op_name").get<std::string>();
    const auto task = first_task.find(name);
    html += "<tr><td>" + std::to_string(++rank) + "</td><td class='mono'>" + html_escape(name) +
            "</td><td class='t'>" + html_escape(op.at("op_type").get<std::string>()) + "</td><td>" +
            number(op.at("device_time"), 3) + "</td><td>" + number(op.at("memory_copy_time"), 3) +
            "</td><td>" + format_percent(op.at("ratio").get<double>()) + "</td><td class='mono'>" +
            (task == first_task.end() ? std::string()
                                      : html_escape(task->second->at("input_shapes").get<std::string>())) +
            "</td></tr>";
  }
  return html + "</table>";
}

std::string field_definitions(const Json& report) {
  std::string html = "<details><summary>What every report field means</summary><dl class='fields'>";
  for (const auto& [path, meaning] : report.at("fields").items())
    html += "<dt>" + html_escape(path) + "</dt><dd>" + html_escape(meaning.get<std::string>()) + "</dd>";
  return html + "</dl></details>";
}

}  // namespace

std::string render_html_report(const Json& report) {
  const std::string model = report.at("model_name").get<std::string>(),
                    soc = report.at("soc_version").get<std::string>();
  std::string html =
      "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><meta name='viewport' "
      "content='width=device-width, initial-scale=1'><title>modelTrade: " +
      html_escape(model) + "</title><style>" + kStyle + "</style></head><body><main>";
  html += "<h1>modelTrade report: " + html_escape(model) + "</h1><p class='sub'>SoC " + html_escape(soc);
  if (report.contains("source"))
    html += " &middot; from " + html_escape(report.at("source").at("directory").get<std::string>());
  html += "</p>" + summary(report);
  html += "<h2 id='advice'>Advice</h2>" + advice_list(report);
  html += "<h2 id='top-operators'>Top operators by device time</h2>" + top_operators_chart(report);
  html += "<h2 id='types'>Device time by operator type</h2>" + category_legend() + type_chart(report);
  html += "<h2 id='timeline'>Timeline</h2>" + category_legend() + timeline_html(report);
  html += "<h2 id='pipes'>Pipe utilisation</h2>" + pipe_chart(report);
  html += "<h2 id='health'>Health table (msprof reference values)</h2>" + health_table(report);
  html += "<h2 id='operators'>Operators</h2>" + operator_table(report);
  html += "<h2 id='fields'>Fields</h2>" + field_definitions(report);
  html += "</main><script>" + std::string(timeline_script()) + "</script></body></html>\n";
  return html;
}

}  // namespace asc::profiler
