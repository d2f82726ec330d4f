#include "asc/sdk/tbe/schedule.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>
#include <unordered_set>

#include "asc/sdk/error.hpp"
#include "asc/sdk/tbe/evaluate.hpp"

namespace asc::tbe {
namespace {

constexpr std::int64_t kAccumulatorBytes = 4;  // L0C holds fp32 (int32 for int8)
constexpr std::int64_t kBlockAlignBytes = 32;  // UB and GM transfers move 32-byte blocks

std::int64_t round_up(std::int64_t value, std::int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

[[noreturn]] void fail_schedule(const std::string& stage, const std::string& detail) {
  throw Error(ErrorCode::TbeScheduleInvalid, "stage '" + stage + "': " + detail);
}

bool debug_enabled() {
  const char* level = std::getenv("TE_LOG_LEVEL");
  if (level == nullptr) return false;
  std::string text(level);
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text == "debug" || text == "0";  // CANN also spells debug as 0
}

// The stages that depend on `root` (itself included).
std::unordered_set<const Stage*> dependents(const std::vector<StagePtr>& order, const Stage* root) {
  std::unordered_set<const Stage*> result{root};
  for (const StagePtr& stage : order)
    for (const StagePtr& operand : stage->operands)
      if (result.count(operand.get()) != 0) result.insert(stage.get());
  return result;
}

// GEMM view of a Cube stage.
struct Gemm {
  std::int64_t batch = 1, m = 0, k = 0, n = 0;
};
Gemm gemm_of(const Stage& cube) {
  if (cube.kind == StageKind::Matmul) {
    const Shape& a = cube.operands[0]->shape;
    return {1, cube.shape[0], cube.matmul.transpose_a ? a[0] : a[1], cube.shape[1]};
  }
  const Shape& w = cube.operands[1]->shape;
  const std::int64_t groups = cube.conv.groups;
  return {groups, cube.shape[0] * cube.shape[2] * cube.shape[3], w[1] * w[2] * w[3], cube.shape[1] / groups};
}

// Sizes worth trying along one block dimension: powers of two of the fractal and even splits
// into 1..4 tiles (as the NPU compiler's own tiler).
std::set<std::int64_t> tile_sizes(std::int64_t extent, std::int64_t fractal) {
  std::set<std::int64_t> sizes{extent};
  for (std::int64_t size = fractal; size < extent; size *= 2) sizes.insert(size);
  for (std::int64_t parts = 2; parts <= 4; ++parts) sizes.insert(round_up(ceil_div(extent, parts), fractal));
  return sizes;
}

struct Footprint {
  const char* buffer;
  std::int64_t needed, size;
};

// The first buffer `t` overflows, or nullopt.
std::optional<Footprint> overflow(const KernelTiling& t, const KernelTarget& target) {
  for (const Footprint& f : {Footprint{"L0A", t.l0a_bytes, target.l0a_bytes}, Footprint{"L0B", t.l0b_bytes, target.l0b_bytes},
                             Footprint{"L0C", t.l0c_bytes, target.l0c_bytes}, Footprint{"L1", t.l1_bytes, target.l1_bytes},
                             Footprint{"UB", t.ub_bytes, target.ub_bytes}})
    if (f.needed > f.size) return f;
  return std::nullopt;
}

class Scheduler {
 public:
  Scheduler(const TensorExpr& output, const KernelTarget& target, const ScheduleOverride& manual)
      : output_(output), target_(target), manual_(manual), order_(topological_order(output)) {}

  Schedule run() {
    if (manual_.buffer_count && (*manual_.buffer_count < 1 || *manual_.buffer_count > 2))
      fail_schedule(output_.name(),
                    "buffer_count " + std::to_string(*manual_.buffer_count) + " must be 1 or 2");
    if (manual_.block_dim && *manual_.block_dim < 1)
      fail_schedule(output_.name(),
                    "block_dim " + std::to_string(*manual_.block_dim) + " must be at least 1");
    schedule_.soc_version = target_.soc_version;
    schedule_.buffer_count = manual_.buffer_count.value_or(2);
    const Stage* cube = find_cube();
    place_stages(cube);
    if (cube != nullptr)
      schedule_cube(*cube);
    else
      schedule_vector();
    if (const auto over = overflow(schedule_.tiling, target_))
      fail_schedule(cube != nullptr ? cube->name : output_.name(),
                    std::string(over->buffer) + " needs " + std::to_string(over->needed) + " bytes, " +
                        target_.soc_version + " has " + std::to_string(over->size));
    if (debug_enabled()) std::cerr << schedule_.describe(target_);
    return schedule_;
  }

 private:
  const Stage* find_cube() const {
    const Stage* cube = nullptr;
    for (const StagePtr& stage : order_) {
      if (!is_cube(stage->kind)) continue;
      if (cube != nullptr)
        fail_schedule(stage->name,
                      "a second Cube stage after '" + cube->name +
                          "': auto_schedule maps one Cube stage per operator (write two operators)");
      cube = stage.get();
      for (const StagePtr& operand : stage->operands)
        if (operand->kind != StageKind::Placeholder)
          fail_schedule(stage->name, "operand '" + operand->name + "' is computed by a " +
                                         std::string(stage_kind_name(operand->kind)) +
                                         " stage; a Cube stage reads placeholders only (no Vector prologue)");
    }
    return cube;
  }

  void place_stages(const Stage* cube) {
    const DType device = device_dtype(target_);
    const auto after_cube = cube != nullptr ? dependents(order_, cube) : std::unordered_set<const Stage*>{};
    for (const StagePtr& stage : order_) {
      StagePlan plan{stage->name, stage->kind, ComputeUnit::Vector, "UB", stored_dtype(*stage, device)};
      if (stage->kind == StageKind::Placeholder) {
        plan.unit = ComputeUnit::None;
        plan.buffer = "GM";
      } else if (is_cube(stage->kind)) {
        plan.unit = ComputeUnit::Cube;
        plan.buffer = "L0C";
      } else if (after_cube.count(stage.get()) != 0) {
        if (is_reduction(stage->kind))
          fail_schedule(stage->name,
                        "a reduction after the Cube stage '" + cube->name +
                            "' cannot run on the Cube's output tiles (reduce in a second operator)");
        if (stage->kind != StageKind::Broadcast) epilogue_passes_ += 1;
      } else if (cube != nullptr && stage->kind != StageKind::Broadcast) {
        // Operand preparation (a cast of a per-channel scale, ...): its share of a pass.
        epilogue_passes_ += static_cast<double>(num_elements(stage->shape)) / num_elements(output_.shape());
      }
      schedule_.stages.push_back(std::move(plan));
    }
  }

  // Bytes of the epilogue operands' slices for one base_m x base_n tile.
  std::int64_t epilogue_operand_bytes(const Stage& cube, std::int64_t base_m, std::int64_t base_n) const {
    std::int64_t bytes = 0;
    const auto es = static_cast<std::int64_t>(target_.element_bytes);
    for (const StagePtr& stage : order_) {
      if (stage->kind != StageKind::Placeholder) continue;
      const bool cube_operand = std::any_of(cube.operands.begin(), cube.operands.end(),
                                            [&](const StagePtr& operand) { return operand == stage; });
      if (cube_operand) continue;
      // Per-channel operands (at most one value per output channel: the GEMM's n per group) need
      // the tile's channels only; others a whole tile.
      const Gemm g = gemm_of(cube);
      const bool per_channel = num_elements(stage->shape) <= g.batch * g.n;
      bytes += round_up((per_channel ? base_n : base_m * base_n) * es, kBlockAlignBytes);
    }
    return bytes;
  }

  int epilogue_inputs(const Stage& cube) const {
    int count = 0;
    for (const StagePtr& stage : order_)
      if (stage->kind == StageKind::Placeholder &&
          std::none_of(cube.operands.begin(), cube.operands.end(), [&](const StagePtr& o) { return o == stage; }))
        ++count;
    return count;
  }

  void schedule_cube(const Stage& cube) {
    schedule_.unit = ComputeUnit::Cube;
    schedule_.cube_stage = cube.name;
    const Gemm g = gemm_of(cube);
    const auto es = static_cast<std::int64_t>(std::max<std::size_t>(1, target_.element_bytes));
    const std::int64_t fm = target_.cube_m, fk = target_.cube_k, fn = target_.cube_n;
    const std::int64_t mp = round_up(g.m, fm), kp = round_up(g.k, fk), np = round_up(g.n, fn);
    const std::int64_t buffers = schedule_.buffer_count;
    struct Knob {
      const char* name;
      std::optional<std::int64_t> value;
      std::int64_t fractal;
    };
    for (const Knob& knob : {Knob{"base_m", manual_.base_m, fm}, Knob{"base_n", manual_.base_n, fn},
                             Knob{"base_k", manual_.base_k, fk}, Knob{"l1_k", manual_.l1_k, fk}})
      if (knob.value && (*knob.value < 1 || *knob.value % knob.fractal != 0))
        fail_schedule(cube.name, std::string(knob.name) + " " + std::to_string(*knob.value) +
                                     " is not a positive multiple of the " + std::to_string(knob.fractal) +
                                     "-element fractal");
    if (manual_.l1_k && manual_.base_k && *manual_.l1_k % *manual_.base_k != 0)
      fail_schedule(cube.name, "l1_k " + std::to_string(*manual_.l1_k) + " is not a multiple of base_k " +
                                   std::to_string(*manual_.base_k));

    KernelTiling base;
    base.batch = g.batch;
    base.m = g.m;
    base.k = g.k;
    base.n = g.n;
    base.double_buffer = buffers == 2;
    base.epilogue_passes = epilogue_passes_;
    base.epilogue_inputs = epilogue_inputs(cube);
    std::optional<KernelTiling> best, first_rejected;
    double best_cost = 0;
    std::set<std::pair<std::int64_t, std::int64_t>> tried;
    const std::int64_t cores = std::max(1, target_.ai_cores);
    for (std::int64_t split_m = 1; split_m <= std::min(cores, mp / fm); ++split_m)
      for (std::int64_t split_n = 1; split_m * split_n <= cores && split_n <= np / fn; ++split_n) {
        KernelTiling t = base;
        t.block_m = round_up(ceil_div(mp, split_m), fm);
        t.block_n = round_up(ceil_div(np, split_n), fn);
        if (!tried.insert({t.block_m, t.block_n}).second) continue;
        t.block_dim = static_cast<int>(g.batch * ceil_div(mp, t.block_m) * ceil_div(np, t.block_n));
        if (manual_.block_dim && t.block_dim != *manual_.block_dim) continue;
        const auto ms = manual_.base_m ? std::set<std::int64_t>{*manual_.base_m} : tile_sizes(t.block_m, fm);
        const auto ns = manual_.base_n ? std::set<std::int64_t>{*manual_.base_n} : tile_sizes(t.block_n, fn);
        for (const std::int64_t bm : ms)
          for (const std::int64_t bn : ns) {
            t.base_m = bm;
            t.base_n = bn;
            const std::int64_t k_fit = std::min(target_.l0a_bytes / (buffers * bm * es), target_.l0b_bytes / (buffers * bn * es));
            t.base_k = manual_.base_k.value_or(std::clamp(k_fit / fk * fk, fk, kp));
            for (const std::int64_t depth : l1_depths(kp, es, buffers, t)) {
              t.l1_k = depth;
              footprints(cube, t, es, buffers);
              if (overflow(t, target_)) {
                if (!first_rejected) first_rejected = t;
                continue;
              }
              const double cost = target_.estimate_us ? target_.estimate_us(t) : mmad_estimate(t);
              if (!best || cost < best_cost) {
                best = t;
                best_cost = cost;
              }
            }
          }
      }
    if (best) {
      schedule_.tiling = *best;
    } else if (first_rejected) {
      schedule_.tiling = *first_rejected;  // run() reports the buffer it overflows
    } else {
      fail_schedule(cube.name, "block_dim " + std::to_string(manual_.block_dim.value_or(0)) + " splits no " +
                                   std::to_string(g.batch) + " x [" + std::to_string(g.m) + " x " +
                                   std::to_string(g.n) + "] output into blocks of at most one per core (" +
                                   std::to_string(cores) + " cores)");
    }
    schedule_.epilogue_flops = epilogue_passes_ * static_cast<double>(num_elements(output_.shape()));
  }

  std::vector<std::int64_t> l1_depths(std::int64_t kp, std::int64_t es, std::int64_t buffers, const KernelTiling& t) const {
    if (manual_.l1_k) return {std::min(*manual_.l1_k, kp)};
    const std::int64_t row_bytes = buffers * (t.base_m + t.base_n) * es;
    std::vector<std::int64_t> depths;
    if (row_bytes * kp <= target_.l1_bytes) depths.push_back(kp);
    const std::int64_t deepest = std::min(kp - 1, target_.l1_bytes / (row_bytes * t.base_k) * t.base_k);
    for (std::int64_t depth = t.base_k; depth <= deepest; depth *= 2) depths.push_back(depth);
    if (deepest >= t.base_k && (depths.empty() || depths.back() != deepest)) depths.push_back(deepest);
    if (depths.empty()) depths.push_back(t.base_k);  // fits nowhere: reported as an L1 overflow
    return depths;
  }

  void footprints(const Stage& cube, KernelTiling& t, std::int64_t es, std::int64_t buffers) const {
    t.l0a_bytes = buffers * t.base_m * t.base_k * es;
    t.l0b_bytes = buffers * t.base_k * t.base_n * es;
    t.l0c_bytes = buffers * t.base_m * t.base_n * kAccumulatorBytes;
    t.l1_bytes = buffers * (t.base_m + t.base_n) * t.l1_k * es;
    const bool epilogue = epilogue_passes_ > 0 || t.epilogue_inputs > 0;
    t.ub_bytes = epilogue ? buffers * (round_up(t.base_m * t.base_n * es, kBlockAlignBytes) +
                                       epilogue_operand_bytes(cube, t.base_m, t.base_n))
                          : 0;
  }

  // Without the backend's model: padded MMAD cycles on the busiest core plus one vector pass per
  // epilogue pass, per tile.
  double mmad_estimate(const KernelTiling& t) const {
    const double waves = static_cast<double>(ceil_div(t.block_dim, std::max(1, target_.ai_cores)));
    const double tiles = static_cast<double>(ceil_div(t.block_m, t.base_m) * ceil_div(t.block_n, t.base_n));
    const double fractals = static_cast<double>(ceil_div(t.base_m, target_.cube_m) * ceil_div(t.base_n, target_.cube_n) *
                                                ceil_div(round_up(t.k, target_.cube_k), target_.cube_k));
    const double vector = t.epilogue_passes * static_cast<double>(t.base_m * t.base_n) *
                          static_cast<double>(target_.element_bytes) / target_.vector_bytes_per_cycle;
    return waves * tiles * (std::max(fractals, vector) + static_cast<double>(ceil_div(t.k, t.base_k)));
  }

  void schedule_vector() {
    schedule_.unit = ComputeUnit::Vector;
    const auto es = static_cast<std::int64_t>(std::max<std::size_t>(1, target_.element_bytes));
    const std::int64_t align = std::max<std::int64_t>(1, kBlockAlignBytes / es);
    KernelTiling& t = schedule_.tiling;
    t.double_buffer = schedule_.buffer_count == 2;
    std::int64_t passes = 0, operands = 1, largest = 1;
    for (const StagePtr& stage : order_) {
      largest = std::max(largest, num_elements(stage->shape));
      if (stage->kind == StageKind::Placeholder)
        ++operands;
      else if (stage->kind != StageKind::Broadcast)
        ++passes;
    }
    t.elements = largest;
    const int cores = std::max(1, target_.vector_cores);
    const std::int64_t repeat = std::max(align, static_cast<std::int64_t>(target_.vector_bytes_per_cycle) / es);
    const std::int64_t blocks =
        manual_.block_dim ? *manual_.block_dim : std::clamp<std::int64_t>(ceil_div(t.elements, repeat), 1, cores);
    const std::int64_t block_elements = round_up(ceil_div(t.elements, blocks), align);
    t.block_dim = static_cast<int>(ceil_div(t.elements, block_elements));
    const std::int64_t buffers = schedule_.buffer_count;
    const std::int64_t fit = target_.ub_bytes / (buffers * operands) / kBlockAlignBytes * kBlockAlignBytes / es;
    if (manual_.ub_tile_elements && (*manual_.ub_tile_elements < 1 || *manual_.ub_tile_elements % align != 0))
      fail_schedule(output_.name(), "ub_tile_elements " + std::to_string(*manual_.ub_tile_elements) +
                                        " is not a positive multiple of the " + std::to_string(align) +
                                        "-element 32-byte block");
    t.ub_tile_elements = manual_.ub_tile_elements.value_or(std::max<std::int64_t>(align, std::min(fit, block_elements)));
    t.tiles_per_block = ceil_div(block_elements, t.ub_tile_elements);
    t.ub_bytes = buffers * operands * t.ub_tile_elements * es;
    schedule_.epilogue_flops = static_cast<double>(passes) * static_cast<double>(t.elements);
  }

  const TensorExpr& output_;
  const KernelTarget& target_;
  const ScheduleOverride& manual_;
  std::vector<StagePtr> order_;
  Schedule schedule_;
  double epilogue_passes_ = 0;
};

std::string bytes_line(const char* buffer, std::int64_t used, std::int64_t size) {
  std::ostringstream out;
  out << "  " << buffer << ": " << used << " / " << size << " bytes";
  if (size > 0) out << " (" << (100 * used / size) << "%)";
  out << "\n";
  return out.str();
}

}  // namespace

DType device_dtype(const KernelTarget& target) {
  return target.element_bytes == 2 ? DType::Float16 : DType::Float32;
}

std::string Schedule::describe(const KernelTarget& target) const {
  std::ostringstream out;
  const auto unit_label = [](ComputeUnit u) {
    return u == ComputeUnit::Cube ? "Cube" : u == ComputeUnit::Vector ? "Vector" : "-";
  };
  out << "[TBE] schedule for " << soc_version << ": " << unit_label(unit) << " task"
      << (cube_stage.empty() ? "" : ", Vector epilogue fused into the output tiles of '" + cube_stage + "'") << "\n";
  for (const StagePlan& stage : stages)
    out << "  stage " << stage.stage << " (" << stage_kind_name(stage.kind) << "): " << unit_label(stage.unit)
        << ", " << stage.buffer << ", " << dtype_name(stage.stored) << "\n";
  const KernelTiling& t = tiling;
  out << "  block_dim " << t.block_dim << " over " << (unit == ComputeUnit::Cube ? target.ai_cores : target.vector_cores)
      << " cores, " << buffer_count << " buffer(s) per operand\n";
  if (unit == ComputeUnit::Cube)
    out << "  gemm " << t.batch << " x [" << t.m << " x " << t.k << "] * [" << t.k << " x " << t.n << "], block "
        << t.block_m << " x " << t.block_n << ", L0 tile " << t.base_m << " x " << t.base_k << " x " << t.base_n
        << ", l1_k " << t.l1_k << ", epilogue passes " << t.epilogue_passes << "\n";
  else
    out << "  elements " << t.elements << ", UB tile " << t.ub_tile_elements << " elements, " << t.tiles_per_block
        << " tiles per block\n";
  out << bytes_line("L0A", t.l0a_bytes, target.l0a_bytes) << bytes_line("L0B", t.l0b_bytes, target.l0b_bytes)
      << bytes_line("L0C", t.l0c_bytes, target.l0c_bytes) << bytes_line("L1", t.l1_bytes, target.l1_bytes)
      << bytes_line("UB", t.ub_bytes, target.ub_bytes);
  return out.str();
}

Schedule auto_schedule(const TensorExpr& output, const KernelTarget& target, const ScheduleOverride& manual) {
  if (!output.defined()) throw Error(ErrorCode::TbeExpressionInvalid, "auto_schedule: the expression is empty");
  return Scheduler(output, target, manual).run();
}

}  // namespace asc::tbe
