#include "asc/sdk/backend/random_inputs.hpp"

#include <algorithm>
#include "asc/sdk/error.hpp"

namespace asc {

Shape random_input_shape(const ValueInfo& info, const InputShapeSpec& spec) {
  const auto given = spec.find(info.name);
  if (given == spec.end() && !info.shape)
    throw Error(ErrorCode::InputShapeInvalid,
                "input '" + info.name + "' has an unknown rank: give its shape with input_shape");
  std::vector<Dim> dims;
  if (info.shape) dims = *info.shape;
  if (given != spec.end()) {
    const std::vector<std::int64_t>& wanted = given->second;
    if (info.shape && wanted.size() != dims.size())
      throw Error(ErrorCode::InputShapeInvalid, "input_shape gives input '" + info.name + "' rank " +
                                                    std::to_string(wanted.size()) + ", the model declares " +
                                                    to_string(info));
    if (!info.shape) dims.assign(wanted.size(), Dim());
    for (std::size_t d = 0; d < wanted.size(); ++d) {
      if (wanted[d] < 0) continue;
      if (dims[d].is_static() && dims[d].value != wanted[d])
        throw Error(ErrorCode::InputShapeInvalid, "input_shape gives input '" + info.name + "' dimension " +
                                                      std::to_string(d) + " = " + std::to_string(wanted[d]) +
                                                      ", the model declares " + to_string(info));
      dims[d] = Dim(wanted[d]);
    }
  }
  Shape shape;
  for (const Dim& dim : dims) shape.push_back(dim.is_static() ? dim.value : 1);
  return shape;
}

Tensor random_tensor(DType dtype, const Shape& shape, std::mt19937& generator) {
  const std::size_t count = static_cast<std::size_t>(num_elements(shape));
  if (dtype == DType::Float64) {
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> values(count);
    for (double& v : values) v = uniform(generator);
    return Tensor::from_vector(shape, values);
  }
  if (is_floating(dtype)) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> values(count);
    for (float& v : values) v = uniform(generator);
    const Tensor floats = Tensor::from_vector(shape, values);
    return dtype == DType::Float32 ? floats : floats.cast(dtype);
  }
  if (dtype == DType::Bool || is_integral(dtype)) {
    std::uniform_int_distribution<std::int64_t> uniform(0, dtype == DType::Bool ? 1 : 9);
    std::vector<std::int64_t> values(count);
    for (std::int64_t& v : values) v = uniform(generator);
    return Tensor::from_vector(shape, values).cast(dtype);
  }
  throw_unsupported_dtype(dtype, "random input");
}

TensorMap random_inputs(const std::vector<ValueInfo>& inputs, const InputShapeSpec& spec,
                        std::uint32_t seed) {
  for (const auto& entry : spec) {
    const std::string& name = entry.first;
    const bool known =
        std::any_of(inputs.begin(), inputs.end(), [&](const ValueInfo& i) { return i.name == name; });
    if (!known)
      throw Error(ErrorCode::InputShapeInvalid,
                  "input_shape names '" + name + "', which is not a graph input");
  }
  std::mt19937 generator(seed);
  TensorMap tensors;
  for (const ValueInfo& info : inputs) {
    if (info.dtype == DType::Undefined)
      throw Error(ErrorCode::InputMismatch,
                  "input '" + info.name + "' has no declared dtype: give input files");
    tensors[info.name] = random_tensor(info.dtype, random_input_shape(info, spec), generator);
  }
  return tensors;
}

}  // namespace asc
