// The `npusim.om_to_json` pipeline stage: `atc --mode=1 --om=x.om --json=x.json` as a stage.
#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::npusim {

StageDefinition om_to_json_stage();

}  // namespace asc::npusim
