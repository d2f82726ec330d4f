#include "analysis/op_categories.hpp"

#include "analysis/text_format.hpp"

namespace asc::profiler {
namespace {

// clang-format off
constexpr std::string_view kDataMovementTypes[] = {
    "reshape", "reshaped", "transpose", "transposed", "confusiontransposed", "transdata", "cast",
    "slice", "sliced", "stridedslice", "stridedsliced", "split", "splitd", "splitv", "splitvd",
    "concat", "concatd", "concatv2", "concatv2d", "pack", "unpack",
    "gather", "gatherv2", "gatherv2d", "gatherelements", "gathernd",
    "squeeze", "unsqueeze", "expanddims", "flatten", "identity", "tensormove",
    "tile", "tiled", "broadcastto", "broadcasttod", "expand", "pad", "padd",
    "depthtospace", "spacetodepth", "permute"};
// clang-format on

}  // namespace

bool is_memcpy_task(const ProfileEvent& event) {
  return contains_ignoring_case(event.task_type, "memcpy") || contains_ignoring_case(event.op_type, "memcpy");
}

bool is_data_movement_type(std::string_view op_type) {
  const std::string type = to_lower(trim(op_type));
  for (const std::string_view known : kDataMovementTypes)
    if (type == known) return true;
  return false;
}

bool is_conv_type(std::string_view op_type) {
  return contains_ignoring_case(op_type, "conv") && !contains_ignoring_case(op_type, "convert");
}

bool is_matmul_type(std::string_view op_type) {
  return contains_ignoring_case(op_type, "matmul") || equal_ignoring_case(trim(op_type), "gemm") ||
         equal_ignoring_case(trim(op_type), "fullyconnection");
}

bool is_cube_type(std::string_view op_type) {
  return is_conv_type(op_type) || is_matmul_type(op_type);
}

std::string category_of(const ProfileEvent& event) {
  if (is_memcpy_task(event)) return "memcpy";
  if (contains_ignoring_case(event.task_type, "communication") ||
      contains_ignoring_case(event.task_type, "hccl"))
    return "communication";
  if (contains_ignoring_case(event.task_type, "ai_cpu") || contains_ignoring_case(event.task_type, "aicpu"))
    return "aicpu";
  if (is_data_movement_type(event.op_type)) return "data_movement";
  if (is_cube_type(event.op_type)) return "cube";
  return "vector";
}

std::string lane_core_of(const ProfileEvent& event) {
  const std::string type = to_lower(trim(event.task_type));
  if (is_memcpy_task(event)) return "Memcpy";
  if (type == "ai_core" || type == "mix_aic") return "AI Core";
  if (type == "ai_vector_core" || type == "mix_aiv") return "AI Vector Core";
  if (type == "ai_cpu" || type == "aicpu") return "AI CPU";
  if (type == "communication" || type == "hccl") return "Communication";
  return trim(event.task_type).empty() ? std::string("Other") : trim(event.task_type);
}

}  // namespace asc::profiler
