// configs/pipelines/atc.yaml and om_to_json.yaml, embedded at build time (CMake writes
// embedded_pipelines.cpp from embedded_pipelines.cpp.in), so `atc` runs exactly the pipelines
// the repository documents without looking for them on disk.
#pragma once

namespace asc::atc {

extern const char* const kAtcPipelineYaml;
extern const char* const kOmToJsonPipelineYaml;

}  // namespace asc::atc
