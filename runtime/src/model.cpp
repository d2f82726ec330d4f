// Loading a model through the SDK and describing its inputs and outputs for ACL.
#include "model.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include "acl/acl_base.h"
#include "api_guard.hpp"
#include "asc/sdk/error.hpp"
#include "simulator_backend.hpp"

namespace asc::acl {
namespace {

std::mutex models_mutex;
std::map<std::uint32_t, std::shared_ptr<Model>> loaded_models;
std::uint32_t next_model_id = 1;

aclFormat format_for(const Shape& dims) { return dims.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND; }

std::size_t bytes_of(const Shape& shape, DType dtype) {
  std::int64_t count = 1;
  for (const std::int64_t dim : shape) count *= std::max<std::int64_t>(dim, 0);
  return static_cast<std::size_t>(count) * dtype_size(dtype);
}

std::vector<std::uint64_t> numbers_in(const std::string& text) {
  std::vector<std::uint64_t> numbers;
  const char* position = text.data();
  const char* end = text.data() + text.size();
  while (position < end) {
    if (*position < '0' || *position > '9') {
      ++position;
      continue;
    }
    std::uint64_t value = 0;
    position = std::from_chars(position, end, value).ptr;
    numbers.push_back(value);
  }
  return numbers;
}

DynamicKind kind_of(const std::vector<InputProfile>& profiles) {
  if (profiles.size() < 2) return DynamicKind::None;
  const std::string& label = profiles.front().label;
  if (label.rfind("batch=", 0) == 0) return DynamicKind::Batch;
  if (label.rfind("image_size=", 0) == 0) return DynamicKind::ImageSize;
  return DynamicKind::Dims;
}

// The dims of `info`, -1 where not static.
Shape dims_of(const ValueInfo& info) {
  Shape dims;
  if (info.shape)
    for (const Dim& dim : *info.shape) dims.push_back(dim.is_static() ? dim.value : -1);
  return dims;
}

// Output shapes under one profile: a dimension named by a symbol takes the value the inputs'
// same symbol has in the profile; an unnamed dynamic leading dimension of a dynamic batch
// model is the batch.
std::vector<Shape> output_shapes(const Executable& executable, const ModelProfile& profile, DynamicKind kind) {
  std::map<std::string, std::int64_t> symbols;
  for (const ValueInfo& input : executable.input_infos()) {
    const auto found = profile.profile.input_shapes.find(input.name);
    if (!input.shape || found == profile.profile.input_shapes.end()) continue;
    for (std::size_t i = 0; i < input.shape->size() && i < found->second.size(); ++i)
      if (!(*input.shape)[i].symbol.empty()) symbols[(*input.shape)[i].symbol] = found->second[i];
  }
  std::vector<Shape> shapes;
  for (const ValueInfo& output : executable.output_infos()) {
    Shape shape;
    if (output.shape)
      for (std::size_t i = 0; i < output.shape->size(); ++i) {
        const Dim& dim = (*output.shape)[i];
        std::int64_t value = dim.value;
        if (!dim.is_static()) {
          const auto symbol = symbols.find(dim.symbol);
          if (!dim.symbol.empty() && symbol != symbols.end()) value = symbol->second;
          else if (i == 0 && kind == DynamicKind::Batch && !profile.values.empty())
            value = static_cast<std::int64_t>(profile.values.front());
        }
        shape.push_back(value);
      }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

}  // namespace

aclDataType to_acl_dtype(DType dtype) {
  switch (dtype) {
    case DType::Float32: return ACL_FLOAT;
    case DType::Float16: return ACL_FLOAT16;
    case DType::BFloat16: return ACL_BF16;
    case DType::Float64: return ACL_DOUBLE;
    case DType::Int8: return ACL_INT8;
    case DType::UInt8: return ACL_UINT8;
    case DType::Int16: return ACL_INT16;
    case DType::UInt16: return ACL_UINT16;
    case DType::Int32: return ACL_INT32;
    case DType::UInt32: return ACL_UINT32;
    case DType::Int64: return ACL_INT64;
    case DType::UInt64: return ACL_UINT64;
    case DType::Bool: return ACL_BOOL;
    case DType::Undefined: break;
  }
  return ACL_DT_UNDEFINED;
}

std::shared_ptr<Model> load_model(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    fail(ACL_ERROR_INVALID_FILE, "model file " + path.string() + " does not exist or is not a file");
  Simulator sim = simulator();
  // A backend that does not yet answer reads_model_file() (the SDK's default says false) still
  // gets to load the file: its own check rejects what it cannot read (EE4004).
  const bool recognised = sim.backend->reads_model_file(path);
  ModelFileInfo info;
  try {
    info = sim.backend->describe_model_file(path);
  } catch (const Error& described) {
    if (described.code() != ErrorCode::Internal) throw;  // the backend cannot describe files yet: no custom ops known
  }
  if (!info.op_lib_dirs.empty()) sim = simulator(info.op_lib_dirs);

  auto model = std::make_shared<Model>();
  model->name = path.stem().string();
  model->precision_mode = info.precision_mode;
  try {
    model->executable = sim.backend->load(path, *sim.ops, {});
  } catch (const Error& refused) {
    if (recognised) throw;
    fail(ACL_ERROR_DESERIALIZE_MODEL, path.string() + " is not an offline model (.om) the simulator reads "
                                                      "(convert the model with this project's atc): " + refused.what());
  }
  const Executable& executable = *model->executable;

  std::vector<InputProfile> profiles = executable.input_profiles();
  if (profiles.size() < 2 && info.profiles.size() >= 2) profiles = info.profiles;
  model->dynamic = kind_of(profiles);
  for (InputProfile& profile : profiles) {
    ModelProfile entry;
    entry.values = numbers_in(profile.label);
    entry.profile = std::move(profile);
    entry.output_shapes = output_shapes(executable, entry, model->dynamic);
    model->profiles.push_back(std::move(entry));
  }

  for (const ValueInfo& input : executable.input_infos()) {
    ModelIo io;
    io.name = input.name;
    io.dtype = input.dtype;
    io.acl_dtype = to_acl_dtype(input.dtype);
    io.dims = dims_of(input);
    io.format = format_for(io.dims);
    for (const ModelProfile& profile : model->profiles) {
      const auto found = profile.profile.input_shapes.find(input.name);
      if (found != profile.profile.input_shapes.end())
        io.max_bytes = std::max(io.max_bytes, bytes_of(found->second, input.dtype));
    }
    model->inputs.push_back(std::move(io));
  }
  model->graph_input_count = model->inputs.size();
  if (model->dynamic == DynamicKind::Batch || model->dynamic == DynamicKind::ImageSize) {
    ModelIo io;
    io.name = ACL_DYNAMIC_TENSOR_NAME;
    io.dtype = DType::UInt64;
    io.acl_dtype = ACL_UINT64;
    io.dims = {model->dynamic == DynamicKind::Batch ? 1 : 2};
    io.max_bytes = static_cast<std::size_t>(io.dims[0]) * sizeof(std::uint64_t);
    io.dynamic_tensor = true;
    model->inputs.push_back(std::move(io));
  }
  const auto output_infos = executable.output_infos();
  for (std::size_t i = 0; i < output_infos.size(); ++i) {
    ModelIo io;
    io.name = output_infos[i].name;
    io.dtype = output_infos[i].dtype;
    io.acl_dtype = to_acl_dtype(io.dtype);
    io.dims = dims_of(output_infos[i]);
    io.format = format_for(io.dims);
    for (const ModelProfile& profile : model->profiles) io.max_bytes = std::max(io.max_bytes, bytes_of(profile.output_shapes[i], io.dtype));
    model->outputs.push_back(std::move(io));
  }
  model->current_output_shapes.clear();
  for (std::size_t i = 0; i < model->outputs.size(); ++i) {
    Shape largest = model->profiles.empty() ? model->outputs[i].dims : model->profiles.back().output_shapes[i];
    for (const ModelProfile& profile : model->profiles)
      if (bytes_of(profile.output_shapes[i], model->outputs[i].dtype) >= bytes_of(largest, model->outputs[i].dtype))
        largest = profile.output_shapes[i];
    model->current_output_shapes.push_back(largest);
  }

  // What the SDK shows of the model's device memory (docs/acl.md): its inputs and outputs as the
  // work memory, the file (weights stored at their device dtype) as the weight memory.
  for (const ModelIo& io : model->inputs) model->work_size += io.max_bytes;
  for (const ModelIo& io : model->outputs) model->work_size += io.max_bytes;
  model->weight_size = static_cast<std::size_t>(std::filesystem::file_size(path));
  return model;
}

std::uint32_t add_model(std::shared_ptr<Model> model) {
  std::lock_guard lock(models_mutex);
  model->id = next_model_id++;
  loaded_models[model->id] = std::move(model);
  return next_model_id - 1;
}

std::shared_ptr<Model> model_of(std::uint32_t id) {
  std::lock_guard lock(models_mutex);
  const auto found = loaded_models.find(id);
  if (found == loaded_models.end())
    fail(ACL_ERROR_INVALID_MODEL_ID, "model id " + std::to_string(id) + " is not loaded (never loaded, or unloaded)");
  return found->second;
}

std::shared_ptr<Model> remove_model(std::uint32_t id) {
  std::shared_ptr<Model> model = model_of(id);
  std::lock_guard lock(models_mutex);
  loaded_models.erase(id);
  return model;
}

void unload_all_models() {
  std::lock_guard lock(models_mutex);
  loaded_models.clear();
}

}  // namespace asc::acl
