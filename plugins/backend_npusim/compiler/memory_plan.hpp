// Device memory of one profile: every value gets a region and an offset. Activations share one
// arena, reused by lifetime (task index of the producer to the last reader) with the greedy
// best-fit-by-size algorithm (TFLite's "greedy by size": largest buffers first, each into the
// smallest gap between buffers whose lifetimes overlap, else on top); under
// --disable_reuse_memory they are laid end to end. Metadata ops that only reinterpret their
// input (Reshape, Flatten, Squeeze, ...) alias it instead of taking a buffer. Weights, graph
// inputs and graph outputs have their own regions. Every block is aligned to 512 bytes, GE's
// memory block alignment [U: GE's kMemAlignSize as read in public GE sources].
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compiled_model.hpp"
#include "soc_config.hpp"

namespace asc::npusim {

inline constexpr std::int64_t kMemoryAlignment = 512;

// `values` must have region, bytes and (for activations) first_task/last_task set; fills the
// offsets. `aliases` maps a value to the activation whose buffer it reuses (same offset; its
// lifetime extends the buffer's). `workspace_bytes` is the largest task workspace (tasks run one
// at a time, so they share one).
MemoryPlan plan_memory(std::vector<ValuePlacement>& values, const std::map<std::string, std::string>& aliases,
                       bool reuse, std::int64_t workspace_bytes);

// EE3001 when the plan exceeds the SoC's device memory, naming the profile, every region's size,
// the device memory and the largest tensor.
void check_device_memory(const CompiledProfile& profile, const SocConfig& soc);

}  // namespace asc::npusim
