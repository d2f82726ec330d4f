// Profile analysis. It registers nothing yet: modelTrade's reports and rules are the
// [modeltrade] issue's work.
#include <asc/sdk/plugin.hpp>

ASC_PLUGIN("profiler", ASC_SDK_VERSION_STRING, asc::kProfilerKind,
           "Profile analysis (not implemented yet: registers nothing)") {}
