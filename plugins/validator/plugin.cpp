// Precision validators. It registers nothing yet: the metrics, diagnosis and reports are the
// [opvalidate] issue's work.
#include <asc/sdk/plugin.hpp>

ASC_PLUGIN("validator", ASC_SDK_VERSION_STRING, asc::kValidatorKind,
           "Operator precision validation (not implemented yet: registers nothing)") {}
