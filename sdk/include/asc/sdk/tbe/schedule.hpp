// auto_schedule: how a TBE DSL expression (expr.hpp) runs on one SoC, derived from the
// expression and the SoC's buffers (asc::KernelTarget, kernel_tiling.hpp).
//
// - Unit assignment: conv2d/matmul on the Cube, every other stage on the Vector unit.
// - Fusion: the Vector stages after a Cube stage are its epilogue, run on each output tile in UB
//   before it is written out (no round trip to GM); broadcasts of an epilogue operand cost no
//   pass of their own (the vector instruction's repeat stride reads the operand in place).
// - Tiles: the Cube's GEMM view (conv2d: m = N*Ho*Wo, n = M/groups, k = C/groups*kH*kW, one
//   product per group) is split into blocks over the AI cores; each block runs base_m x base_n
//   L0C tiles over K in base_k steps, with l1_k of K staged in L1. With double buffering (two
//   buffers) every footprint counts twice: L0A 2*base_m*base_k, L0B 2*base_k*base_n, L0C
//   2*base_m*base_n*4 (fp32), L1 2*(base_m+base_n)*l1_k, UB 2*(the epilogue tile + the epilogue
//   operands' slices). A Vector-only expression streams its output elements through UB tiles
//   holding every placeholder and the result, split over the vector cores.
// - Choice: among the tilings that fit, the one the target's estimate_us ranks fastest (the
//   backend's timing model), else the one with the fewest padded MMAD cycles per core.
//
// Expressions auto_schedule cannot map (two Cube stages, a Vector stage feeding a Cube, a
// reduction after a Cube) and manual overrides that do not fit are EE2005 naming the stage, the
// buffer, the bytes needed and the SoC's size. With TE_LOG_LEVEL=debug (the seed's tbe_debug)
// the chosen schedule and its per-buffer footprints are printed to stderr.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "asc/sdk/kernel_tiling.hpp"
#include "asc/sdk/op_registry.hpp"
#include "asc/sdk/tbe/expr.hpp"

namespace asc::tbe {

// Tuning knobs; every field left empty is chosen by auto_schedule.
struct ScheduleOverride {
  std::optional<int> block_dim;          // blocks (Cube: split of the output; Vector: of the elements)
  std::optional<int> buffer_count;       // 1 (no double buffering) or 2
  std::optional<std::int64_t> base_m, base_k, base_n;  // L0 tile (fractal multiples)
  std::optional<std::int64_t> l1_k;      // K staged in L1 (a base_k multiple)
  std::optional<std::int64_t> ub_tile_elements;  // Vector-only expressions
  bool empty() const {
    return !block_dim && !buffer_count && !base_m && !base_k && !base_n && !l1_k && !ub_tile_elements;
  }
};

struct StagePlan {
  std::string stage;
  StageKind kind = StageKind::Placeholder;
  ComputeUnit unit = ComputeUnit::None;  // None: a placeholder in GM
  std::string buffer;                    // "GM", "L0C", "UB"
  DType stored = DType::Undefined;       // the dtype the buffer holds (evaluate.hpp's stored_dtype)
};

struct Schedule {
  std::string soc_version;
  ComputeUnit unit = ComputeUnit::Vector;  // Cube when the expression has a Cube stage
  std::string cube_stage;                  // its name, or ""
  std::vector<StagePlan> stages;           // topological order
  int buffer_count = 2;
  KernelTiling tiling;                     // what the backend times and the .om records
  double epilogue_flops = 0;               // Vector work of the whole task (one flop per element per pass)
  // Multi-line text: stage placement, tiles, block dim and every buffer's footprint against the
  // SoC's size.
  std::string describe(const KernelTarget& target) const;
};

// The device dtype for a target (Float16 for element_bytes 2, else Float32).
DType device_dtype(const KernelTarget& target);

Schedule auto_schedule(const TensorExpr& output, const KernelTarget& target, const ScheduleOverride& manual = {});

}  // namespace asc::tbe
