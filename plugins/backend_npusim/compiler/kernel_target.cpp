#include "kernel_target.hpp"

#include <asc/sdk/error.hpp>

#include "../timing_model.hpp"

namespace asc::npusim {

KernelTarget kernel_target(const SocConfig& soc, std::size_t element_bytes) {
  KernelTarget target;
  target.soc_version = soc.name;
  target.ai_cores = soc.ai_cores;
  target.vector_cores = soc.split ? soc.vector_cores : soc.ai_cores;
  const CubeShape& cube = cube_shape(soc, element_bytes);
  target.cube_m = cube.m;
  target.cube_k = cube.k;
  target.cube_n = cube.n;
  target.l0a_bytes = soc.l0a_bytes;
  target.l0b_bytes = soc.l0b_bytes;
  target.l0c_bytes = soc.l0c_bytes;
  target.l1_bytes = soc.l1_bytes;
  target.ub_bytes = soc.ub_bytes;
  target.vector_bytes_per_cycle = soc.vector_bytes_per_cycle;
  target.element_bytes = element_bytes;
  return target;
}

Tiling to_tiling(const KernelTiling& k) {
  Tiling t;
  t.block_dim = k.block_dim;
  t.batch = k.batch;
  t.m = k.m;
  t.k = k.k;
  t.n = k.n;
  t.block_m = k.block_m;
  t.block_n = k.block_n;
  t.base_m = k.base_m;
  t.base_k = k.base_k;
  t.base_n = k.base_n;
  t.l1_k = k.l1_k;
  t.elements = k.elements;
  t.ub_tile_elements = k.ub_tile_elements;
  t.tiles_per_block = k.tiles_per_block;
  t.double_buffer = k.double_buffer;
  t.l0a_bytes = k.l0a_bytes;
  t.l0b_bytes = k.l0b_bytes;
  t.l0c_bytes = k.l0c_bytes;
  t.l1_bytes = k.l1_bytes;
  t.ub_bytes = k.ub_bytes;
  return t;
}

void check_tiling_fits(const SocConfig& soc, const Tiling& t, const std::string& node) {
  const struct {
    const char* buffer;
    std::int64_t used, size;
  } buffers[] = {{"L0A", t.l0a_bytes, soc.l0a_bytes}, {"L0B", t.l0b_bytes, soc.l0b_bytes}, {"L0C", t.l0c_bytes, soc.l0c_bytes},
                 {"L1", t.l1_bytes, soc.l1_bytes},    {"UB", t.ub_bytes, soc.ub_bytes}};
  for (const auto& b : buffers)
    if (b.used > b.size)
      throw Error(ErrorCode::TbeScheduleInvalid, "node '" + node + "': the operator's tiling needs " + std::to_string(b.used) +
                                                     " bytes of " + b.buffer + ", " + soc.name + " has " +
                                                     std::to_string(b.size));
}

}  // namespace asc::npusim
