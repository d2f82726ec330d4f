#include "run_shapes.hpp"

#include <asc/sdk/error.hpp>
#include <map>
#include <sstream>

namespace asc::bench {
namespace {

std::string declared(const ValueInfo& info, const Shape& shape) { return info.name + shape_to_string(shape); }

std::vector<std::int64_t> integers(const std::string& text, const std::string& flag) {
  std::vector<std::int64_t> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    std::size_t used = 0;
    std::int64_t value = 0;
    try {
      value = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || value <= 0)
      throw Error(ErrorCode::ConfigBadValue, flag + " \"" + text + "\": '" + item + "' is not a positive integer");
    values.push_back(value);
  }
  return values;
}

std::vector<std::size_t> dynamic_positions(const Shape& declared) {
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < declared.size(); ++i)
    if (declared[i] < 0) positions.push_back(i);
  return positions;
}

Shape with_dims(Shape shape, const std::vector<std::size_t>& positions, const std::vector<std::int64_t>& values) {
  for (std::size_t i = 0; i < positions.size(); ++i) shape[positions[i]] = values[i];
  return shape;
}

std::vector<Shape> batch_shapes(const std::vector<ValueInfo>& inputs, const ProfileShapes& profiles,
                                std::int64_t batch, const std::string& flag) {
  const std::vector<Shape> declared_dims = declared_shapes(profiles);
  std::vector<Shape> shapes;
  bool any_dynamic = false;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::vector<std::size_t> positions = dynamic_positions(declared_dims[i]);
    if (positions.empty()) {
      shapes.push_back(profiles.front()[i]);
      continue;
    }
    if (positions != std::vector<std::size_t>{0})
      throw Error(ErrorCode::UsageError, flag + " " + std::to_string(batch) + ": model input " +
                                             declared(inputs[i], declared_dims[i]) +
                                             " is dynamic in other dimensions than the batch; use --dymHW or --dymDims");
    any_dynamic = true;
    shapes.push_back(with_dims(profiles.front()[i], positions, {batch}));
  }
  if (!any_dynamic)
    throw Error(ErrorCode::UsageError, flag + " " + std::to_string(batch) + ": the model has no dynamic batch (its "
                                           "inputs are static); drop the option or compile with --dynamic_batch_size");
  return shapes;
}

std::vector<Shape> hw_shapes(const std::vector<ValueInfo>& inputs, const ProfileShapes& profiles, const std::string& text) {
  const std::vector<std::int64_t> hw = integers(text, "--dymHW");
  if (hw.size() != 2) throw Error(ErrorCode::ConfigBadValue, "--dymHW \"" + text + "\": give \"height,width\"");
  const std::vector<Shape> declared_dims = declared_shapes(profiles);
  std::vector<Shape> shapes;
  bool any_dynamic = false;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::vector<std::size_t> positions = dynamic_positions(declared_dims[i]);
    if (!positions.empty() && positions.size() != 2)
      throw Error(ErrorCode::UsageError, "--dymHW " + text + ": model input " + declared(inputs[i], declared_dims[i]) +
                                             " is not dynamic in exactly its height and width");
    any_dynamic = any_dynamic || !positions.empty();
    shapes.push_back(with_dims(profiles.front()[i], positions, positions.empty() ? std::vector<std::int64_t>{} : hw));
  }
  if (!any_dynamic)
    throw Error(ErrorCode::UsageError, "--dymHW " + text + ": the model has no dynamic image size (its inputs are "
                                           "static); drop the option or compile with --dynamic_image_size");
  return shapes;
}

std::vector<Shape> dims_shapes(const std::vector<ValueInfo>& inputs, const ProfileShapes& profiles,
                               const std::string& text) {
  std::map<std::string, std::vector<std::int64_t>> given;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ';');) {
    const auto colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0)
      throw Error(ErrorCode::ConfigBadValue, "--dymDims \"" + text + "\": '" + item + "' is not name:d0,d1,...");
    given[item.substr(0, colon)] = integers(item.substr(colon + 1), "--dymDims");
  }
  for (const auto& [name, dims] : given) {
    bool known = false;
    for (const ValueInfo& info : inputs) known = known || info.name == name;
    if (!known) {
      std::string names;
      for (const ValueInfo& info : inputs) names += (names.empty() ? "" : ", ") + info.name;
      throw Error(ErrorCode::ConfigBadValue, "--dymDims names '" + name + "', the model's inputs are " + names);
    }
  }
  const std::vector<Shape> declared_dims = declared_shapes(profiles);
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ValueInfo& info = inputs[i];
    const auto found = given.find(info.name);
    if (found == given.end()) {
      if (!dynamic_positions(declared_dims[i]).empty())
        throw Error(ErrorCode::UsageError,
                    "--dymDims gives no shape for the dynamic input " + declared(info, declared_dims[i]));
      shapes.push_back(profiles.front()[i]);
      continue;
    }
    if (found->second.size() != declared_dims[i].size())
      throw Error(ErrorCode::InputShapeInvalid, "--dymDims gives '" + info.name + "' " +
                                                    std::to_string(found->second.size()) + " dims, the model input " +
                                                    declared(info, declared_dims[i]) + " has " +
                                                    std::to_string(declared_dims[i].size()));
    shapes.push_back(found->second);
  }
  return shapes;
}

}  // namespace

std::vector<Shape> declared_shapes(const ProfileShapes& profiles) {
  std::vector<Shape> declared = profiles.front();
  for (const std::vector<Shape>& profile : profiles)
    for (std::size_t input = 0; input < declared.size(); ++input)
      for (std::size_t d = 0; d < declared[input].size() && d < profile[input].size(); ++d)
        if (profile[input][d] != declared[input][d]) declared[input][d] = -1;
  return declared;
}

std::vector<Shape> run_shapes(const std::vector<ValueInfo>& inputs, const ProfileShapes& profiles,
                              const BenchOptions& options) {
  if (options.dym_batch != 0) return batch_shapes(inputs, profiles, options.dym_batch, "--dymBatch");
  if (!options.dym_hw.empty()) return hw_shapes(inputs, profiles, options.dym_hw);
  if (!options.dym_dims.empty()) return dims_shapes(inputs, profiles, options.dym_dims);
  if (profiles.size() == 1) return profiles.front();
  if (options.batch != 0) return batch_shapes(inputs, profiles, options.batch, "--batch");
  const std::vector<Shape> declared_dims = declared_shapes(profiles);
  std::string dynamic;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (!dynamic_positions(declared_dims[i]).empty())
      dynamic += (dynamic.empty() ? "" : ", ") + declared(inputs[i], declared_dims[i]);
  throw Error(ErrorCode::UsageError, "the model has dynamic inputs (" + dynamic + ", " + std::to_string(profiles.size()) +
                                         " compiled profiles): pick one with --dymBatch, --dymHW or --dymDims");
}

}  // namespace asc::bench
