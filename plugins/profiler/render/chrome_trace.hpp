// The report's timeline as a Chrome trace (Trace Event Format), which Perfetto and
// chrome://tracing open: {"traceEvents": [...]} with one process per stream (pid = stream id,
// named "Stream N"), one thread per lane (tid = lane index + 1, named "Stream N / AI Core"), and a
// complete event (ph "X", ts/dur in microseconds after the first task's start) per task.
#pragma once

#include <nlohmann/json.hpp>

namespace asc::profiler {

constexpr int kNoStreamPid = 65535;  // pid of tasks whose stream is N/A

nlohmann::ordered_json chrome_trace(const nlohmann::ordered_json& report);

}  // namespace asc::profiler
