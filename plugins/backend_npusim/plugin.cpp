// The NPU simulator backend. It registers no backend yet: the simulator (NPU numerics, the
// tile-level timing model, streams, profiling and dumps) is the [npusim] issue's work.
#include <asc/sdk/plugin.hpp>

ASC_PLUGIN("backend_npusim", ASC_SDK_VERSION_STRING, asc::kBackendKind,
           "NPU simulator backend (not implemented yet: registers nothing)") {}
