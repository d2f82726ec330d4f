// aclmdlExecute / aclmdlExecuteAsync and the dynamic batch / image size choice.
//
// The datasets are checked when the call is made (buffer counts, device memory, sizes for the
// chosen profile); the run itself happens when the stream reaches it: the inputs are read from
// device memory then, the executable runs with a ProfileSink, the outputs are written to the
// output buffers, and the run occupies the AI cores for its tasks' simulated time. With
// ASC_ACL_TIMING_ONLY=1 in the environment the kernels are not computed (RunOptions::timing_only):
// the same simulated time and profile, and the output buffers are left as they were.
#include <algorithm>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "asc/sdk/parallel.hpp"
#include "api_guard.hpp"
#include "data_buffer.hpp"
#include "device.hpp"
#include "host_clock.hpp"
#include "memory_registry.hpp"
#include "model.hpp"
#include "profiler.hpp"

namespace asc::acl {
namespace {

struct CaptureSink : ProfileSink {
  void record(const ProfileEvent& event) override { events.push_back(event); }
  std::vector<ProfileEvent> events;
};

std::size_t tensor_bytes_of(const Shape& shape, DType dtype) {
  return static_cast<std::size_t>(num_elements(shape)) * dtype_size(dtype);
}

std::string values_text(const std::vector<std::uint64_t>& values) {
  std::string text;
  for (const std::uint64_t value : values) text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

// ASC_ACL_THREADS (the runtime's own variable, kept for existing programs) wins over
// ASC_NUM_THREADS; without either, every core (asc::default_threads).
int emulation_threads() {
  if (const char* value = std::getenv("ASC_ACL_THREADS"); value != nullptr && std::atoi(value) > 0) return std::atoi(value);
  return default_threads();
}

// ASC_ACL_TIMING_ONLY=1: simulate the timing only (read at every execution).
bool timing_only() {
  const char* value = std::getenv("ASC_ACL_TIMING_ONLY");
  return value != nullptr && std::string(value) == "1";
}

// The profile the dynamic tensor's content (device memory) chooses.
std::size_t chosen_profile(const Model& model, const aclmdlDataset& input) {
  if (model.dynamic == DynamicKind::None) return 0;
  if (model.dynamic == DynamicKind::Dims)
    fail(ACL_ERROR_API_NOT_SUPPORT, "models with --dynamic_dims profiles are not supported by this runtime yet "
                                    "(aclmdlSetInputDynamicDims)");
  const std::size_t index = model.graph_input_count;
  const aclDataBuffer buffer = data_buffer_of(input.buffers.at(index));
  const std::size_t count = model.dynamic == DynamicKind::Batch ? 1 : 2;
  check_device_range(buffer.data, count * sizeof(std::uint64_t), std::string("input ") + std::to_string(index) + " (" ACL_DYNAMIC_TENSOR_NAME ")");
  std::vector<std::uint64_t> values(count);
  std::memcpy(values.data(), buffer.data, count * sizeof(std::uint64_t));
  for (std::size_t i = 0; i < model.profiles.size(); ++i)
    if (model.profiles[i].values == values) return i;
  std::string known;
  for (const ModelProfile& profile : model.profiles) known += (known.empty() ? "" : "; ") + values_text(profile.values);
  fail(ACL_ERROR_INVALID_PARAM, "the dynamic tensor holds " + values_text(values) +
                                    ", which is no profile of the model (" + known + "): call aclmdlSet" +
                                    (model.dynamic == DynamicKind::Batch ? "DynamicBatchSize" : "DynamicHWSize") + " first");
}

struct PreparedRun {
  std::shared_ptr<Model> model;
  std::size_t profile = 0;
  std::vector<void*> inputs;                           // device pointers of the graph inputs
  std::vector<std::pair<void*, std::size_t>> outputs;  // device pointer, buffer size
};

PreparedRun prepare(std::uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
  PreparedRun run;
  run.model = model_of(modelId);
  const Model& model = *run.model;
  const std::shared_ptr<aclmdlDataset> held_inputs = dataset_of(input, "input");
  const std::shared_ptr<aclmdlDataset> held_outputs = dataset_of(output, "output");
  const aclmdlDataset& inputs = *held_inputs;
  const aclmdlDataset& outputs = *held_outputs;
  if (inputs.buffers.size() != model.inputs.size())
    fail(ACL_ERROR_MODEL_INPUT_NOT_MATCH, "the input dataset has " + std::to_string(inputs.buffers.size()) +
                                              " buffers and the model " + std::to_string(model.inputs.size()) + " inputs" +
                                              (model.dynamic != DynamicKind::None ? " (the last is " ACL_DYNAMIC_TENSOR_NAME ")" : ""));
  if (outputs.buffers.size() != model.outputs.size())
    fail(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, "the output dataset has " + std::to_string(outputs.buffers.size()) +
                                               " buffers and the model " + std::to_string(model.outputs.size()) + " outputs");
  run.profile = chosen_profile(model, inputs);
  const ModelProfile& profile = model.profiles.at(run.profile);
  for (std::size_t i = 0; i < model.graph_input_count; ++i) {
    const ModelIo& io = model.inputs[i];
    const aclDataBuffer buffer = data_buffer_of(inputs.buffers[i]);
    const std::size_t needed = tensor_bytes_of(profile.profile.input_shapes.at(io.name), io.dtype);
    const std::string what = "input " + std::to_string(i) + " ('" + io.name + "')";
    if (buffer.size < needed)
      fail(ACL_ERROR_MODEL_INPUT_NOT_MATCH, what + ": the buffer has " + std::to_string(buffer.size) + " bytes and " +
                                                profile.profile.label + " needs " + std::to_string(needed));
    check_device_range(buffer.data, needed, what);
    run.inputs.push_back(buffer.data);
  }
  for (std::size_t i = 0; i < model.outputs.size(); ++i) {
    const aclDataBuffer buffer = data_buffer_of(outputs.buffers[i]);
    const std::string what = "output " + std::to_string(i) + " ('" + model.outputs[i].name + "')";
    const Shape& shape = profile.output_shapes.at(i);
    const bool known = std::all_of(shape.begin(), shape.end(), [](std::int64_t dim) { return dim >= 0; });
    const std::size_t needed = known ? tensor_bytes_of(shape, model.outputs[i].dtype) : 1;
    if (known && buffer.size < needed)
      fail(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, what + ": the buffer has " + std::to_string(buffer.size) + " bytes and " +
                                                 std::to_string(needed) + " are needed");
    check_device_range(buffer.data, std::max<std::size_t>(needed, 1), what);
    run.outputs.emplace_back(buffer.data, buffer.size);
  }
  return run;
}

// The execution as work of stream `stream_id` (its kernels are that stream's tasks in profiles).
Stream::Work run_work(PreparedRun run, int stream_id) {
  return [run = std::move(run), stream_id](double ready_us) {
    Model& model = *run.model;
    std::lock_guard lock(model.run_mutex);
    const ModelProfile& profile = model.profiles.at(run.profile);
    TensorMap inputs;
    for (std::size_t i = 0; i < model.graph_input_count; ++i) {
      const ModelIo& io = model.inputs[i];
      const Shape& shape = profile.profile.input_shapes.at(io.name);
      const std::size_t bytes = tensor_bytes_of(shape, io.dtype);
      check_device_range(run.inputs[i], bytes, "input '" + io.name + "' of a queued execution");
      auto buffer = Buffer::wrap(nullptr, static_cast<std::byte*>(run.inputs[i]), bytes);
      inputs[io.name] = Tensor(buffer, 0, io.dtype, shape, contiguous_strides(shape));
    }
    CaptureSink sink;
    RunOptions options;
    options.profile_sink = &sink;
    options.threads = emulation_threads();
    options.timing_only = timing_only();
    TensorMap outputs = model.executable->execute(inputs, options);

    std::vector<Shape> shapes;
    for (std::size_t i = 0; i < model.outputs.size(); ++i) {
      const ModelIo& io = model.outputs[i];
      const auto found = outputs.find(io.name);
      if (found == outputs.end()) fail(ACL_ERROR_GE_FAILURE, "the execution produced no output '" + io.name + "'");
      const auto [pointer, size] = run.outputs[i];
      if (options.timing_only) {  // placeholders: the buffers keep what they held
        shapes.push_back(found->second.shape());
        continue;
      }
      const Tensor tensor = found->second.contiguous();
      if (tensor.nbytes() > size)
        fail(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, "output " + std::to_string(i) + " ('" + io.name + "') has " +
                                                   std::to_string(tensor.nbytes()) + " bytes and its buffer " +
                                                   std::to_string(size));
      check_device_range(pointer, tensor.nbytes(), "output '" + io.name + "' of a queued execution");
      std::memcpy(pointer, tensor.view().raw(), tensor.nbytes());
      shapes.push_back(tensor.shape());
    }
    {
      std::lock_guard output_lock(model.output_mutex);
      model.current_output_shapes = std::move(shapes);
    }
    double duration_us = 0;
    for (const ProfileEvent& event : sink.events) duration_us = std::max(duration_us, event.start_us + event.duration_us);
    const double start_us = the_device().timeline.place(Engine::AiCore, ready_us, duration_us);
    if (profiler().recording()) {
      const Shape& first_input = profile.profile.input_shapes.at(model.inputs.front().name);
      const msprof::ProfiledModel profiled{model.name, model.precision_mode, first_input.empty() ? 0 : first_input.front()};
      profiler().record_execution(stream_id, sink.events, start_us, profiled);
    }
    return start_us + duration_us;
  };
}

void write_dynamic_tensor(std::uint32_t modelId, aclmdlDataset* dataset, size_t index,
                          const std::vector<std::uint64_t>& values, DynamicKind kind) {
  std::shared_ptr<Model> model = model_of(modelId);
  const std::shared_ptr<aclmdlDataset> held = dataset_of(dataset);
  const aclmdlDataset& inputs = *held;
  const char* api = kind == DynamicKind::Batch ? "dynamic batch" : "dynamic image size";
  if (model->dynamic != kind)
    fail(ACL_ERROR_MODEL_NOT_DYNAMIC, "model " + std::to_string(modelId) + " was not converted with a " + api +
                                          " (atc --" + (kind == DynamicKind::Batch ? "dynamic_batch_size" : "dynamic_image_size") + ")");
  if (index != model->graph_input_count)
    fail(ACL_ERROR_INVALID_PARAM, "index " + std::to_string(index) + " is not the model's " ACL_DYNAMIC_TENSOR_NAME
                                  " input (index " + std::to_string(model->graph_input_count) + ", aclmdlGetInputIndexByName)");
  if (index >= inputs.buffers.size())
    fail(ACL_ERROR_INVALID_PARAM, "the dataset has no buffer at index " + std::to_string(index) +
                                      ": add a device buffer of aclmdlGetInputSizeByIndex bytes for it");
  const bool known = std::any_of(model->profiles.begin(), model->profiles.end(),
                                 [&](const ModelProfile& profile) { return profile.values == values; });
  if (!known) {
    std::string profiles;
    for (const ModelProfile& profile : model->profiles) profiles += (profiles.empty() ? "" : "; ") + values_text(profile.values);
    fail(ACL_ERROR_INVALID_PARAM, std::string(api) + " " + values_text(values) + " is not one the model was converted for (" +
                                      profiles + ")");
  }
  const aclDataBuffer buffer = data_buffer_of(inputs.buffers[index]);
  const std::size_t bytes = values.size() * sizeof(std::uint64_t);
  if (buffer.size < bytes)
    fail(ACL_ERROR_INVALID_PARAM, "the " ACL_DYNAMIC_TENSOR_NAME " buffer has " + std::to_string(buffer.size) +
                                      " bytes; it needs " + std::to_string(bytes));
  check_device_range(buffer.data, bytes, "the " ACL_DYNAMIC_TENSOR_NAME " buffer");
  std::memcpy(buffer.data, values.data(), bytes);
}

}  // namespace
}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
  return api_call(__func__, [&] {
    PreparedRun run = prepare(modelId, input, output);
    Stream& stream = *current_context()->default_stream;
    run_synchronously(stream, run_work(std::move(run), stream.id()));
  });
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output, aclrtStream stream) {
  return api_call(__func__, [&] {
    PreparedRun run = prepare(modelId, input, output);
    std::shared_ptr<Stream> target = stream_of(stream);
    target->enqueue(run_work(std::move(run), target->id()), host_now_us());
  });
}

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index, uint64_t batchSize) {
  return api_call(__func__, [&] {
    if (batchSize == 0) fail(ACL_ERROR_INVALID_PARAM, "batchSize is 0");
    write_dynamic_tensor(modelId, dataset, index, {batchSize}, DynamicKind::Batch);
  });
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index, uint64_t height, uint64_t width) {
  return api_call(__func__, [&] {
    if (height == 0 || width == 0) fail(ACL_ERROR_INVALID_PARAM, "height or width is 0");
    write_dynamic_tensor(modelId, dataset, index, {height, width}, DynamicKind::ImageSize);
  });
}

}  // extern "C"
