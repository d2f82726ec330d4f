#include "stage/fusion_result.hpp"

#include <nlohmann/json.hpp>


namespace asc::fusion {

std::string fusion_result_json(const FusionReport& report) {
  nlohmann::ordered_json atc = nlohmann::ordered_json::object();
  nlohmann::ordered_json graph_fusion = nlohmann::ordered_json::object();
  nlohmann::ordered_json ub_fusion = nlohmann::ordered_json::object();
  nlohmann::ordered_json passes = nlohmann::ordered_json::array();
  for (const PassRecord& pass : report.passes) {
    if (pass.ran && pass.result.match_times > 0 && (pass.category == "GraphFusion" || pass.category == "UBFusion")) {
      auto& section = pass.category == "GraphFusion" ? graph_fusion : ub_fusion;
      section[pass.name] = {{"effect_times", std::to_string(pass.result.effect_times)},
                            {"match_times", std::to_string(pass.result.match_times)}};
    }
    nlohmann::ordered_json entry = {{"name", pass.name}, {"category", pass.category}, {"ran", pass.ran}};
    if (!pass.ran) entry["disabled_by"] = pass.disabled_by;
    entry["match_times"] = pass.result.match_times;
    entry["effect_times"] = pass.result.effect_times;
    entry["time_ms"] = pass.milliseconds;
    entry["nodes_after"] = pass.nodes_after;
    passes.push_back(std::move(entry));
  }
  atc["graph_fusion"] = std::move(graph_fusion);
  atc["ub_fusion"] = std::move(ub_fusion);

  nlohmann::ordered_json document;
  document["session_and_graph_id_0_0"] = std::move(atc);
  document["asc"] = {
      {"graph", report.graph},
      {"kernels", {{"before", report.kernels_before}, {"after", report.kernels_after}}},
      {"kernel_definition",
       "nodes that launch device work: every node except Constant and the metadata-only Identity, Dropout, "
       "Reshape, Flatten, Squeeze, Unsqueeze, Shape, Size"},
      {"nodes", {{"before", report.nodes_before}, {"after", report.nodes_after}}},
      {"time_ms", report.milliseconds},
      {"passes", std::move(passes)},
  };
  return document.dump(4, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace asc::fusion
