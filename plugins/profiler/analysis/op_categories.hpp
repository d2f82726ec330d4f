// What kind of work an operator or task is, from its msprof op type and task type.
#pragma once

#include <asc/sdk/profiling.hpp>
#include <string>
#include <string_view>

namespace asc::profiler {

// Colour/grouping category used by the reports: "cube", "vector", "data_movement", "memcpy",
// "aicpu", "communication".
std::string category_of(const ProfileEvent& event);

// A memory copy task (task type MEMCPY*, or a MemcpyAsync-type operator): all of its time is
// data movement.
bool is_memcpy_task(const ProfileEvent& event);
// Operators that only rearrange data (Reshape, Transpose, Slice, Concat, Gather, Cast, TransData,
// Split, Squeeze, Pad, Tile, ... and their CANN "D"/"V2" variants).
bool is_data_movement_type(std::string_view op_type);
bool is_conv_type(std::string_view op_type);    // Conv2D, Conv3D, DepthwiseConv2D, ConvTranspose...
bool is_matmul_type(std::string_view op_type);  // MatMul(V2), BatchMatMul(V2), Gemm, FullyConnection
// Work done on the Cube unit: convolutions and matrix products.
bool is_cube_type(std::string_view op_type);

// The timeline lane of a task within its stream: "AI Core", "AI Vector Core", "AI CPU",
// "Memcpy", "Communication", or the task type itself.
std::string lane_core_of(const ProfileEvent& event);

}  // namespace asc::profiler
