// The SDK's view of the device for self-scheduling operators (asc::KernelTarget, the TBE DSL's
// auto_schedule) built from the SoC file, and their tilings (asc::KernelTiling) as the
// compiler's own Tiling.
#pragma once

#include <asc/sdk/kernel_tiling.hpp>

#include "compiled_model.hpp"
#include "soc_config.hpp"

namespace asc::npusim {

// Buffer sizes, core counts and the fractal of `soc` for a task computing at `element_bytes`
// (no estimate_us: make_task_input adds the timing model).
KernelTarget kernel_target(const SocConfig& soc, std::size_t element_bytes);

Tiling to_tiling(const KernelTiling& tiling);

// EE2005 naming the node and the first buffer the tiling overflows on `soc` (an operator that
// scheduled itself for another SoC, or wrongly).
void check_tiling_fits(const SocConfig& soc, const Tiling& tiling, const std::string& node);

}  // namespace asc::npusim
