// Shared by the npusim tests: the simulator compiled with the built-in operators, SoC files from
// the source tree, and a profile sink that keeps every event.
#pragma once

#include <asc/sdk/backend.hpp>
#include <string>
#include <vector>

#include "soc_config.hpp"

namespace asc::test {

npusim::SocConfig soc(const std::string& name);

// Compiles `graph` for the simulated `soc_version` with the built-in operators.
std::unique_ptr<Executable> compile_npusim(const Graph& graph, const std::string& soc_version,
                                           const std::string& precision_mode = "force_fp16");

struct EventCollector : ProfileSink {
  void record(const ProfileEvent& event) override { events.push_back(event); }
  std::vector<ProfileEvent> events;
};

// A model tools/export_model.py knows (resnet50, mobilenet_v2, bert_encoder, yolo_style, ...),
// exported with a static batch 1 and parsed, once per process and name.
const Graph& exported_model(const std::string& name);
// ResNet-50: exported_model("resnet50").
const Graph& resnet50();

double cosine_similarity(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace asc::test
