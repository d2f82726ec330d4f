#include "om/om_to_json_stage.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>

#include "om/om_atc_json.hpp"
#include "om/om_file.hpp"

namespace asc::npusim {
namespace {

constexpr const char* kOmToJsonStage = "npusim.om_to_json";

void run(PipelineContext& ctx, const StageParams& params) {
  const std::filesystem::path om = params.get_path("om");
  const std::filesystem::path json = params.get_path("json");
  const std::string layout = params.has("layout") ? params.get_string("layout") : "asc";
  if (layout != "asc" && layout != "atc")
    throw Error(ErrorCode::ConfigBadValue, std::string(kOmToJsonStage) + ": layout '" + layout + "' is not asc or atc");
  const CompiledModel model = read_om(om);
  const nlohmann::ordered_json document = layout == "atc" ? om_to_atc_json(model) : om_to_json(model);
  write_text_atomically(json, document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
  ctx.artifacts["om_json"] = json;
  log_info(std::string(kOmToJsonStage) + ": wrote " + json.string() + " from " + om.string());
}

}  // namespace

StageDefinition om_to_json_stage() {
  StageDefinition stage;
  stage.name = kOmToJsonStage;
  stage.description =
      "write an .om model as JSON (atc --mode=1): header, inputs/outputs, every op with its original ONNX node names, "
      "formats, tiling and workspace per profile, memory plans and weight sizes";
  stage.params = {
      {"om", ParamType::Path, true, "", "the .om file to read"},
      {"json", ParamType::Path, true, "", "the JSON file to write (atomically)"},
      {"layout", ParamType::String, false, "asc",
       "asc: ascend-tools' fields (docs/om_format.md); atc: ATC's own graph[].op[] layout (om/om_atc_json.hpp)"},
  };
  stage.run = run;
  return stage;
}

}  // namespace asc::npusim
