// Precision validation (the seed's opValidate): the "precision" validator and the compare stages
// that op_validate and pipelines run.
#include <asc/sdk/plugin.hpp>
#include <memory>

#include "compare_stages.hpp"
#include "precision_validator.hpp"

ASC_PLUGIN("validator", ASC_SDK_VERSION_STRING, asc::kValidatorKind,
           "Operator precision validation: msit compare metrics, diagnosis and reports (op_validate)") {
  registrar.add_validator(std::make_shared<asc::validator::PrecisionValidator>());
  registrar.add_stage(asc::validator::compare_files_stage());
  registrar.add_stage(asc::validator::compare_dirs_stage());
}
