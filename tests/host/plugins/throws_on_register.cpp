// Registers a stage, then fails: the host must refuse the plugin with the plugin's message.
#include "asc/sdk/error.hpp"
#include "asc/sdk/plugin.hpp"

ASC_PLUGIN("throws_on_register", "1.0.0", 0, "Fails while registering") {
  registrar.add_stage({"throws.partial", "Registered before the failure", {}, [](asc::PipelineContext&, const asc::StageParams&) {}, {}});
  throw asc::Error(asc::ErrorCode::Internal, "deliberate registration failure");
}
