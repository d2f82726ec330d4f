// The validator's pipeline stages (the op_validate CLI runs them too):
//   validator.compare_files  one golden/actual pair of .npy or raw .bin files
//   validator.compare_dirs   two dump directories (manifest.json), operator by operator
// Both print the metrics and diagnosis, write the requested reports, and then throw EE7003 when
// the precision check fails. Bad input throws its own code before any report is written
// (compare_dirs: after the reports when only some outputs could not be compared).
#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::validator {

StageDefinition compare_files_stage();
StageDefinition compare_dirs_stage();

}  // namespace asc::validator
