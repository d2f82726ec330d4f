// The compiler's tiling decision for one task: how it splits over the AI cores and which tiles
// it stages through L1, L0A/L0B/L0C or UB (the Tiling struct in compiled_model.hpp).
//
// Cube tasks (GEMM view (m x k) * (k x n), `batch` independent products): the output of each
// product is split into block_m x block_n blocks, one per core (more blocks than cores run in
// waves); each block runs base_m x base_n L0C tiles over K in base_k steps (L0A, L0B and L0C each
// hold two tiles: double buffering), with l1_k of K staged in L1 per MTE2 load (A and B chunks,
// double-buffered). Vector tasks: elements split over the vector cores (AIV cores on split SoCs)
// in 32-byte-aligned blocks, each streamed through UB in tiles that hold every operand twice.
// Every buffer footprint is recorded and never exceeds the SoC's size.
#pragma once

#include "../timing_model.hpp"
#include "compiled_model.hpp"

namespace asc::npusim {

// Candidates are compared with the timing model itself (time_task): the tiling with the
// shortest simulated time wins, as Huawei's auto-tiling picks tilings with its cost model.
Tiling choose_tiling(const SocConfig& soc, const TaskInput& task);

}  // namespace asc::npusim
