#include "npusim_executable.hpp"

#include <asc/sdk/error.hpp>
#include <map>
#include <optional>
#include <string>

#include "compiler/task_input.hpp"
#include <asc/sdk/backend/input_check.hpp>
#include <asc/sdk/backend/node_dump.hpp>
#include <asc/sdk/backend/output_check.hpp>
#include "om/om_file.hpp"
#include "precision.hpp"
#include "task_event.hpp"

namespace asc::npusim {
namespace {

// A task's result as the host stores it: in the value's host dtype (a Cast to fp16 the
// compiler inserted yields float32 with fp16 values), rounded to fp16 where the device holds fp16;
// contiguous unless its readers take it channels-last (PlanStep::channels_last_outputs).
Tensor stored(Tensor output, DType host_dtype, bool as_fp16, bool channels_last_ok, int threads) {
  if (!(channels_last_ok && output.rank() >= 3 && output.is_channels_last())) output = output.contiguous();
  if (output.dtype() == DType::Float16 && host_dtype == DType::Float32)
    return widened_from_f16(output, threads);  // fp16 values already
  if (host_dtype != DType::Undefined && output.dtype() != host_dtype) output = output.cast(host_dtype);
  return as_fp16 ? rounded(std::move(output), threads) : output;
}

// A stand-in for a value a timing-only run does not compute: its shape and dtype, every element
// reading the one zero element of a shared buffer (zero strides), so nothing is allocated.
Tensor placeholder(DType dtype, const Shape& shape) {
  static const std::shared_ptr<Buffer> zero = Buffer::allocate(16);
  return Tensor(zero, 0, dtype, shape, Shape(shape.size(), 0));
}

}  // namespace

std::vector<Tensor> NpusimExecutable::placeholders(const CompiledProfile& profile) const {
  std::map<std::string, const ValuePlacement*> placements;
  for (const ValuePlacement& value : profile.values) placements[value.value] = &value;
  std::vector<Tensor> values = plan_.initial_values;
  for (std::size_t slot = 0; slot < values.size(); ++slot) {
    if (values[slot].defined()) continue;  // a constant: its real value
    const auto found = placements.find(plan_.slot_names[slot]);
    if (found == placements.end())
      throw Error(ErrorCode::Internal, "profile '" + profile.label + "' places no value '" + plan_.slot_names[slot] + "'");
    const DType host = host_dtypes_[slot];
    values[slot] = placeholder(host != DType::Undefined ? host : found->second->dtype, found->second->shape);
  }
  return values;
}

TensorMap NpusimExecutable::execute_timing_only(const CompiledProfile& profile, const std::vector<TaskTiming>& timings,
                                                const RunOptions& options) const {
  const std::vector<Tensor> values = placeholders(profile);
  std::vector<Tensor> slots = values;  // make_context borrows mutable values; nothing writes them
  double clock_us = 0;
  std::size_t task_id = 0;
  for (std::size_t index = 0; index < plan_.steps.size(); ++index) {
    const CompiledTask& task = profile.tasks[index];
    if (task.unit == ComputeUnit::None) continue;
    if (options.profile_sink != nullptr) {
      const PlanStep& step = plan_.steps[index];
      KernelContext context = make_context(step, slots, options.threads);
      for (std::size_t i = 0; i < step.output_slots.size(); ++i)
        if (step.output_slots[i] != kNoSlot) context.outputs[i] = values[static_cast<std::size_t>(step.output_slots[i])];
      options.profile_sink->record(task_event(context, task_id, timings[index], soc_, clock_us, task.compute_dtype));
    }
    clock_us += timings[index].duration_us;
    ++task_id;
  }
  return collect_outputs(plan_, model_->graph, values);
}

NpusimExecutable::NpusimExecutable(CompiledModel model, const OpRegistry& ops, SocConfig soc)
    : model_(std::make_unique<const CompiledModel>(std::move(model))),
      plan_(build_execution_plan(model_->graph, ops)),
      soc_(std::move(soc)) {
  const Graph& graph = model_->graph;
  if (model_->profiles.empty()) throw Error(ErrorCode::Internal, "compiled model '" + graph.name + "' has no profile");
  const auto nodes = graph.nodes();
  for (std::size_t i = 0; i < plan_.steps.size(); ++i)
    if (i >= nodes.size() || plan_.steps[i].node != nodes[i])
      throw Error(ErrorCode::Internal, "execution plan of '" + graph.name + "' is not in graph order");

  // Device dtypes do not change between profiles (precision is decided once per graph).
  std::map<std::string, DType> device_dtypes;
  for (const ValuePlacement& value : model_->profiles.front().values) device_dtypes[value.value] = value.dtype;
  for (const std::string& name : plan_.slot_names) {
    const ValueInfo* info = graph.value_info(name);
    const DType host = graph.is_initializer(name) ? graph.initializers.at(name).dtype()
                       : info != nullptr          ? info->dtype
                                                  : DType::Undefined;
    host_dtypes_.push_back(host);
    const auto device = device_dtypes.find(name);
    stored_as_fp16_.push_back(host == DType::Float32 && device != device_dtypes.end() && device->second == DType::Float16);
  }

  // Timing depends only on the profile's static shapes and the compiled tiling.
  for (const CompiledProfile& profile : model_->profiles) {
    const std::vector<TaskInput> inputs = profile_task_inputs(graph, ops, profile, soc_);
    std::vector<TaskTiming> timings(profile.tasks.size());
    for (std::size_t i = 0; i < profile.tasks.size(); ++i)
      if (profile.tasks[i].unit != ComputeUnit::None) timings[i] = time_task(soc_, inputs[i], profile.tasks[i].tiling);
    timings_.push_back(std::move(timings));
  }
}

std::vector<ValueInfo> NpusimExecutable::infos_of(const std::vector<std::string>& names) const {
  std::vector<ValueInfo> infos;
  for (const std::string& name : names) {
    const ValueInfo* info = model_->graph.value_info(name);
    infos.push_back(info != nullptr ? *info : ValueInfo{name, DType::Undefined, std::nullopt});
  }
  return infos;
}

std::vector<ValueInfo> NpusimExecutable::input_infos() const { return infos_of(model_->graph.inputs); }
std::vector<ValueInfo> NpusimExecutable::output_infos() const { return infos_of(model_->graph.outputs); }

std::vector<InputProfile> NpusimExecutable::input_profiles() const {
  std::vector<InputProfile> profiles;
  for (const CompiledProfile& profile : model_->profiles) profiles.push_back({profile.label, profile.input_shapes});
  return profiles;
}

DeviceInfo NpusimExecutable::device() const { return device_info(soc_); }

void NpusimExecutable::save(const std::filesystem::path& path) const { write_om(*model_, path); }

TensorMap NpusimExecutable::execute(const TensorMap& inputs, const RunOptions& options) {
  const Graph& graph = model_->graph;
  check_inputs(input_infos(), inputs);
  std::map<std::string, Shape> shapes;
  for (const std::string& name : graph.inputs) shapes[name] = inputs.at(name).shape();
  const CompiledProfile& profile = model_->profile_for(shapes);
  const std::vector<TaskTiming>& timings = timings_[static_cast<std::size_t>(&profile - model_->profiles.data())];
  const std::filesystem::path dump_dir = !options.dump_dir.empty() ? options.dump_dir
                                                                   : std::filesystem::path(model_->options.debug_dir);
  if (options.timing_only) {
    if (!dump_dir.empty())
      throw Error(ErrorCode::ConfigBadValue, "a timing-only run computes no values to dump: drop the dump directory " +
                                                 dump_dir.string() + " or run the computation");
    return execute_timing_only(profile, timings, options);
  }

  std::vector<Tensor> values = plan_.initial_values;
  for (std::size_t i = 0; i < plan_.input_slots.size(); ++i)
    values[static_cast<std::size_t>(plan_.input_slots[i])] = inputs.at(graph.inputs[i]).contiguous();

  std::optional<NodeDump> dump;
  if (!dump_dir.empty()) dump.emplace(dump_dir, DumpNaming::Seed);  // {op}.{index}.{timestamp}.bin as the seed names NPU dumps
  double clock_us = 0;  // stream 0's simulated time
  std::size_t task_id = 0;
  try {
    for (std::size_t index = 0; index < plan_.steps.size(); ++index) {
      const PlanStep& step = plan_.steps[index];
      const CompiledTask& task = profile.tasks[index];
      KernelContext context = make_context(step, values, options.threads);
      context.device_dtype = task.compute_dtype;
      // A kernel that can rounds its output to fp16 piece by piece, while the piece is in cache.
      const bool output0_fp16 = !step.output_slots.empty() && step.output_slots[0] != kNoSlot &&
                                stored_as_fp16_[static_cast<std::size_t>(step.output_slots[0])];
      if (output0_fp16) {
        context.output_epilogue = round_range_to_f16;
        OutputEpilogueSteps rounding;  // the same, for a kernel that rounds as it stores
        rounding.round_to_f16 = true;
        context.output_epilogue_steps = rounding;
      }
      run_kernel(step, context);
      check_kernel_outputs(step, context, graph);
      std::vector<DType> precisions(context.outputs.size(), DType::Undefined);  // for the dump
      for (std::size_t i = 0; i < context.outputs.size(); ++i) {
        const int slot = step.output_slots[i];
        if (slot == kNoSlot || !context.outputs[i].defined()) continue;
        const auto s = static_cast<std::size_t>(slot);
        const bool rounded_by_kernel =
            i == 0 && context.output_epilogue_done && context.outputs[0].dtype() == DType::Float32;
        context.outputs[i] = stored(std::move(context.outputs[i]), host_dtypes_[s],
                                    stored_as_fp16_[s] && !rounded_by_kernel, step.channels_last_outputs[i],
                                    options.threads);
        if (stored_as_fp16_[s]) precisions[i] = DType::Float16;
      }
      if (task.unit != ComputeUnit::None) {
        if (options.profile_sink != nullptr)
          options.profile_sink->record(task_event(context, task_id, timings[index], soc_, clock_us, task.compute_dtype));
        clock_us += timings[index].duration_us;
        ++task_id;
      }
      if (dump) dump->record(*step.node, context.outputs, precisions);
      store_outputs(step, context.outputs, values);
    }
  } catch (...) {
    if (dump) dump->write_manifest_after_failure();
    throw;
  }
  if (dump) dump->write_manifest();
  return collect_outputs(plan_, graph, values);
}

}  // namespace asc::npusim
