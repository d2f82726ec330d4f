#include "render/html_timeline.hpp"

#include <cmath>

#include "analysis/text_format.hpp"
#include "render/html_text.hpp"

namespace asc::profiler {
namespace {

constexpr int kTimelineLabelWidth = 210, kPlotWidth = 960, kLane = 24, kAxis = 24, kBar = 16;

// Tick spacing of 1, 2 or 5 x 10^k giving about eight ticks over the span.
double tick_step(double span) {
  if (span <= 0) return 1;
  const double raw = span / 8;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

std::string axis_ticks(double span, int width, int height) {
  std::string ticks;
  const double step = tick_step(span);
  for (double t = 0; span > 0 && t <= span + step * 1e-9; t += step) {
    const std::string x = format_fixed(t / span * width, 2);
    ticks += "<line x1='" + x + "' y1='" + std::to_string(kAxis - 6) + "' x2='" + x + "' y2='" +
             std::to_string(height) + "' class='grid'/><text x='" + x + "' y='" + std::to_string(kAxis - 9) +
             "' class='tick'>" + html_escape(format_us(t)) + "</text>";
  }
  return ticks;
}

}  // namespace

std::string timeline_html(const nlohmann::ordered_json& report) {
  const auto& timeline = report.at("timeline");
  const auto& lanes = timeline.at("lanes");
  const double span = timeline.at("span").get<double>();
  const int height = kAxis + kLane * static_cast<int>(lanes.size()) + 4;

  std::string labels = "<svg xmlns='http://www.w3.org/2000/svg' class='lane-labels' width='" +
                       std::to_string(kTimelineLabelWidth) + "' height='" + std::to_string(height) + "'>";
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const int y = kAxis + kLane * static_cast<int>(i);
    labels += "<text x='" + std::to_string(kTimelineLabelWidth - 8) + "' y='" + std::to_string(y + kBar - 2) +
              "' text-anchor='end' class='label'>" + html_escape(lanes[i].at("name").get<std::string>()) +
              " (" + std::to_string(lanes[i].at("tasks").get<std::size_t>()) + ")</text>";
  }
  labels += "</svg>";

  std::string plot = "<svg xmlns='http://www.w3.org/2000/svg' id='timeline-plot' class='timeline' width='" +
                     std::to_string(kPlotWidth) + "' height='" + std::to_string(height) + "' data-width='" +
                     std::to_string(kPlotWidth) + "' data-span='" + format_fixed(span, 3) + "'>";
  for (std::size_t i = 0; i < lanes.size(); ++i)
    plot += "<rect class='lane " + std::string(i % 2 ? "odd" : "even") + "' data-lane='" + std::to_string(i) +
            "' x='0' y='" + std::to_string(kAxis + kLane * static_cast<int>(i) - 3) +
            "' width='100%' height='" + std::to_string(kLane) + "'/>";
  plot += "<g class='ticks'>" + axis_ticks(span, kPlotWidth, height) + "</g>";
  for (const auto& task : report.at("tasks")) {
    const double start = task.at("start_time").get<double>(), duration = task.at("device_time").get<double>();
    const std::size_t lane = task.at("lane").get<std::size_t>();
    const double x = span > 0 ? start / span * kPlotWidth : 0;
    const double width = std::max(0.5, span > 0 ? duration / span * kPlotWidth : kPlotWidth);
    const std::string name = task.at("op_name").get<std::string>(),
                      type = task.at("op_type").get<std::string>();
    plot += "<rect class='task' data-s='" + format_fixed(start, 3) + "' data-d='" +
            format_fixed(duration, 3) + "' x='" + format_fixed(x, 2) + "' y='" +
            std::to_string(kAxis + kLane * static_cast<int>(lane)) + "' width='" + format_fixed(width, 2) +
            "' height='" + std::to_string(kBar) + "' fill='" +
            category_color(task.at("category").get<std::string>()) + "'><title>" +
            html_escape(name + " (" + type + "): start " + format_us(start) + ", end " +
                        format_us(start + duration) + ", " + format_us(duration)) +
            "</title></rect>";
  }
  plot += "</svg>";

  return "<div class='zoom'>Zoom: <button type='button' data-zoom='2'>+</button> <button type='button' "
         "data-zoom='0.5'>&minus;</button> <button type='button' data-zoom='0'>fit</button> <span "
         "class='note'>" +
         html_escape("start times " + timeline.at("start_times").get<std::string>() + "; span " +
                     format_us(span)) +
         "</span></div><div class='timeline-box'>" + labels + "<div class='timeline-scroll'>" + plot +
         "</div></div>";
}

const char* timeline_script() {
  return R"JS(
(function () {
  var svg = document.getElementById('timeline-plot');
  if (!svg) return;
  var NS = 'http://www.w3.org/2000/svg';
  var base = +svg.dataset.width, span = +svg.dataset.span, zoom = 1;
  var height = +svg.getAttribute('height');
  function label(us) { return us >= 10000 ? (us / 1000).toFixed(2) + ' ms' : us.toFixed(2) + ' us'; }
  function step(s) {
    var raw = s / 8, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var choices = [1, 2, 5, 10];
    for (var i = 0; i < choices.length; i++) if (choices[i] * mag >= raw) return choices[i] * mag;
    return 10 * mag;
  }
  function draw() {
    var width = base * zoom;
    svg.setAttribute('width', width);
    svg.querySelectorAll('rect.task').forEach(function (r) {
      r.setAttribute('x', (+r.dataset.s / span * width).toFixed(2));
      r.setAttribute('width', Math.max(0.5, +r.dataset.d / span * width).toFixed(2));
    });
    var g = svg.querySelector('g.ticks');
    while (g.firstChild) g.removeChild(g.firstChild);
    var st = step(span / zoom);
    for (var t = 0; span > 0 && t <= span + st * 1e-9; t += st) {
      var x = (t / span * width).toFixed(2);
      var line = document.createElementNS(NS, 'line');
      line.setAttribute('x1', x); line.setAttribute('x2', x);
      line.setAttribute('y1', 18); line.setAttribute('y2', height);
      line.setAttribute('class', 'grid');
      var text = document.createElementNS(NS, 'text');
      text.setAttribute('x', x); text.setAttribute('y', 15); text.setAttribute('class', 'tick');
      text.textContent = label(t);
      g.appendChild(line); g.appendChild(text);
    }
  }
  document.querySelectorAll('button[data-zoom]').forEach(function (b) {
    b.addEventListener('click', function () {
      var f = +b.dataset.zoom;
      zoom = f === 0 ? 1 : Math.min(1024, Math.max(1, zoom * f));
      draw();
    });
  });
})();
)JS";
}

}  // namespace asc::profiler
