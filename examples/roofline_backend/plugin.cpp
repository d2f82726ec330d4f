// The plugin's one exported symbol: registers the "roofline" backend with the host.
#include <asc/sdk/plugin.hpp>

#include <memory>

#include "roofline_backend.hpp"

ASC_PLUGIN("backend_roofline", "1.0.0", asc::kBackendKind,
           "roofline backend: reference numerics, per-operator roofline time from the SoC file") {
  registrar.add_backend(std::make_shared<roofline::RooflineBackend>());
}
