#include "task_input.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <asc/sdk/op_cost.hpp>
#include <map>

#include "kernel_target.hpp"

namespace asc::npusim {
namespace {

// What an operator's own tiling tells the timing model: the GEMM it performs (for operators
// gemm_dims does not know) and its epilogue.
void apply_kernel_tiling(TaskInput& task, const KernelTiling& tiling) {
  if (tiling.m > 0 && tiling.k > 0 && tiling.n > 0)
    task.gemm = GemmDims{std::max<std::int64_t>(1, tiling.batch), tiling.m, tiling.n, tiling.k};
  task.epilogue_passes = tiling.epilogue_passes;
}

// Whether the operator chose its tiles (the TBE DSL does) or left them to the compiler.
bool has_tiles(const KernelTiling& tiling) {
  return (tiling.base_m > 0 && tiling.base_k > 0 && tiling.base_n > 0) || tiling.ub_tile_elements > 0;
}

// A convolution's K as the cube runs it. Its FRACTAL_Z weight [C1 x KH x KW, N1, N0, C0] holds
// one C0-channel fractal row per input-channel block and kernel position, so the img2col K pads
// the input channels to C0 at every position: 3 channels at C0 = 4 (small channel) under a 7x7
// kernel are K = 4 x 49 = 196, not 147; at C0 = 16, 16 x 49 = 784. Ungrouped convolutions the
// compiler tiles itself (a grouped one's weight is split per group).
void set_device_k(TaskInput& task, const Node& node,
                  const std::map<std::string, const ValuePlacement*>& placements) {
  if (task.unit != ComputeUnit::Cube || task.scheduled || !task.gemm || task.gemm->batch != 1 ||
      task.gemm->packed != 1 || node.inputs.size() < 2)
    return;
  const auto weight = placements.find(node.inputs[1]);
  if (weight == placements.end() || weight->second->format != Format::FRACTAL_Z ||
      weight->second->device_shape.size() != 4)
    return;
  const Shape& fractal_z = weight->second->device_shape;
  task.gemm->device_k = fractal_z[0] * fractal_z[3];
  task.conv_filter = true;
}

// L2 as an LRU cache over the tasks' traffic: a value read again is still there when the bytes
// loaded and written since its last use, plus its own, fit in L2 (its reuse distance). The same
// rule as a cube task's re-reads (timing_model.cpp), across tasks: the previous task's output,
// a residual branch's input three tasks later, a value a Reshape (no task) renamed.
class L2Recency {
 public:
  explicit L2Recency(std::int64_t l2_bytes) : l2_bytes_(l2_bytes) {}

  bool resident(const std::string& value, std::int64_t bytes) const {
    const auto used = last_use_.find(value);
    return used != last_use_.end() && touched_ - used->second + bytes <= l2_bytes_;
  }
  // A task that loaded and wrote `bytes` in all used `values`.
  void task(const std::vector<std::string>& values, std::int64_t bytes) {
    touched_ += bytes;
    for (const std::string& value : values)
      if (!value.empty()) last_use_[value] = touched_;
  }
  // A node without a task (Reshape, ...): its outputs are its input's bytes under another name.
  void alias(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
    std::int64_t latest = -1;
    for (const std::string& input : inputs)
      if (const auto used = last_use_.find(input); used != last_use_.end()) latest = std::max(latest, used->second);
    if (latest < 0) return;
    for (const std::string& output : outputs)
      if (!output.empty()) last_use_[output] = latest;
  }

 private:
  std::int64_t l2_bytes_;
  std::int64_t touched_ = 0;                        // bytes loaded and written by all tasks so far
  std::map<std::string, std::int64_t> last_use_;    // `touched_` when the value was last used
};

}  // namespace

TaskInput make_task_input(const SocConfig& soc, const Node& node, const OpDefinition* op, ComputeUnit unit,
                          DType compute_dtype, const std::vector<const ValueInfo*>& inputs,
                          const std::vector<const ValueInfo*>& outputs, std::int64_t l2_resident_input_bytes) {
  TaskInput task;
  task.unit = unit;
  task.element_bytes = dtype_size(compute_dtype);
  task.l2_resident_input_bytes = l2_resident_input_bytes;
  std::vector<Shape> in_shapes, out_shapes;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    in_shapes.push_back(inputs[i] == nullptr ? Shape{} : inputs[i]->static_shape());
    if (inputs[i] == nullptr) continue;
    const std::int64_t elements = num_elements(in_shapes.back());
    task.input_elements += elements;
    if (i == 0) task.first_input_elements = elements;
    task.largest_elements = std::max(task.largest_elements, elements);
  }
  for (const ValueInfo* output : outputs) {
    out_shapes.push_back(output == nullptr ? Shape{} : output->static_shape());
    if (output == nullptr) continue;
    const std::int64_t elements = num_elements(out_shapes.back());
    task.output_elements += elements;
    task.largest_elements = std::max(task.largest_elements, elements);
  }
  task.input_count = std::max(1, static_cast<int>(inputs.size()));
  task.output_count = std::max(1, static_cast<int>(outputs.size()));
  if (unit == ComputeUnit::Cube) task.gemm = gemm_dims(node, in_shapes, out_shapes);
  if (op == nullptr || !op->cost) return task;

  KernelTarget target = kernel_target(soc, task.element_bytes);
  // A candidate tiling timed as this task (flops are the operator's and do not depend on it).
  target.estimate_us = [&soc, &task](const KernelTiling& candidate) {
    TaskInput timed = task;
    apply_kernel_tiling(timed, candidate);
    return time_task(soc, timed, to_tiling(candidate)).duration_us;
  };
  const CostFacts facts = op->cost(CostContext{node, inputs, outputs, &target});
  task.flops = facts.flops;
  // A vector operator that reads only part of its inputs (Gather: the rows its indices pick, not
  // the whole embedding table) says so in its cost facts; its loads are that share of the inputs,
  // and it iterates over what it moves, not over the unread input.
  if (unit == ComputeUnit::Vector && facts.bytes_read > 0) {
    std::int64_t whole = 0;
    for (const ValueInfo* input : inputs) whole += value_bytes(input);
    if (facts.bytes_read < whole) {
      task.input_elements = std::max<std::int64_t>(
          1, static_cast<std::int64_t>(static_cast<double>(task.input_elements) * static_cast<double>(facts.bytes_read) /
                                       static_cast<double>(whole)));
      task.largest_elements = task.input_elements;
      for (const Shape& shape : out_shapes) task.largest_elements = std::max(task.largest_elements, num_elements(shape));
    }
  }
  if (facts.tiling && unit == facts.unit) {  // not when the compiler moved the task (AI CPU)
    apply_kernel_tiling(task, *facts.tiling);
    // A tiling that names only the work (a Cube operator's GEMM m/k/n, as docs/custom_ops.md
    // suggests for plain definitions) is tiled by the compiler like a built-in's.
    if (has_tiles(*facts.tiling)) task.scheduled = to_tiling(*facts.tiling);
  }
  return task;
}

std::vector<TaskInput> profile_task_inputs(const Graph& graph, const OpRegistry& ops, const CompiledProfile& profile,
                                           const SocConfig& soc) {
  const std::int64_t l2_bytes = soc.l2_bytes;
  std::map<std::string, ValueInfo> infos;
  std::map<std::string, const ValuePlacement*> placements;
  for (const ValuePlacement& value : profile.values) {
    placements[value.value] = &value;
    const ValueInfo* declared = graph.value_info(value.value);
    const DType host = graph.is_initializer(value.value) ? graph.initializers.at(value.value).dtype()
                       : declared != nullptr                 ? declared->dtype
                                                             : value.dtype;
    infos[value.value] = ValueInfo::from_shape(value.value, host, value.shape);
  }
  auto info_of = [&](const std::string& name) -> const ValueInfo* {
    if (name.empty()) return nullptr;
    const auto found = infos.find(name);
    if (found == infos.end())
      throw Error(ErrorCode::Internal, "profile " + profile.label + " has no placement for value '" + name + "'");
    return &found->second;
  };

  const auto nodes = graph.nodes();
  if (nodes.size() != profile.tasks.size())
    throw Error(ErrorCode::Internal, "profile " + profile.label + " has " + std::to_string(profile.tasks.size()) +
                                         " tasks for " + std::to_string(nodes.size()) + " nodes");
  std::vector<TaskInput> tasks;
  L2Recency l2(l2_bytes);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& node = *nodes[i];
    const CompiledTask& task = profile.tasks[i];
    std::vector<const ValueInfo*> inputs, outputs;
    std::int64_t resident = 0;
    const auto element_bytes = static_cast<std::int64_t>(dtype_size(task.compute_dtype));
    for (const std::string& name : node.inputs) {
      inputs.push_back(info_of(name));
      if (inputs.back() == nullptr) continue;
      const std::int64_t bytes = num_elements(inputs.back()->static_shape()) * element_bytes;
      if (l2.resident(name, bytes)) resident += bytes;
    }
    // What the task writes, at its outputs' device dtypes (an inserted Cast computes at the dtype
    // it reads and writes another: fp32 in, fp16 out).
    std::int64_t written = 0;
    for (const std::string& name : node.outputs) {
      outputs.push_back(info_of(name));
      const auto placement = placements.find(name);
      if (outputs.back() == nullptr || placement == placements.end()) continue;
      const auto bytes = static_cast<std::int64_t>(dtype_size(placement->second->dtype));
      written += num_elements(outputs.back()->static_shape()) * (bytes > 0 ? bytes : element_bytes);
    }
    tasks.push_back(make_task_input(soc, node, find_op(ops, graph, node), task.unit, task.compute_dtype, inputs, outputs, resident));
    tasks.back().output_bytes = written;
    set_device_k(tasks.back(), node, placements);
    if (task.unit == ComputeUnit::None) {
      l2.alias(node.inputs, node.outputs);
      continue;
    }
    // What the task moved: the inputs it loads (a Gather's rows, not its whole table) and its outputs.
    std::vector<std::string> used(node.inputs.begin(), node.inputs.end());
    used.insert(used.end(), node.outputs.begin(), node.outputs.end());
    l2.task(used, tasks.back().input_elements * element_bytes + written);
  }
  return tasks;
}

}  // namespace asc::npusim
