#include "om/om_to_json_stage.hpp"

#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>

#include "om/om_file.hpp"

namespace asc::npusim {
namespace {

constexpr const char* kStage = "npusim.om_to_json";

void run(PipelineContext& ctx, const StageParams& params) {
  const std::filesystem::path om = params.get_path("om");
  const std::filesystem::path json = params.get_path("json");
  write_text_atomically(json, om_to_json(read_om(om)).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
  ctx.artifacts["om_json"] = json;
  log_info(std::string(kStage) + ": wrote " + json.string() + " from " + om.string());
}

}  // namespace

StageDefinition om_to_json_stage() {
  StageDefinition stage;
  stage.name = kStage;
  stage.description =
      "write an .om model as JSON (atc --mode=1): header, inputs/outputs, every op with its original ONNX node names, "
      "formats, tiling and workspace per profile, memory plans and weight sizes";
  stage.params = {
      {"om", ParamType::Path, true, "", "the .om file to read"},
      {"json", ParamType::Path, true, "", "the JSON file to write (atomically)"},
  };
  stage.run = run;
  return stage;
}

}  // namespace asc::npusim
