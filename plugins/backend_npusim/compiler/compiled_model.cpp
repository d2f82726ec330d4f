#include "compiled_model.hpp"

#include <asc/sdk/error.hpp>

namespace asc::npusim {
namespace {

std::string describe(const std::map<std::string, Shape>& shapes) {
  std::string text;
  for (const auto& [name, shape] : shapes) text += (text.empty() ? "" : " ") + name + shape_to_string(shape);
  return text;
}

}  // namespace

const CompiledProfile& CompiledModel::profile_for(const std::map<std::string, Shape>& shapes) const {
  for (const CompiledProfile& profile : profiles)
    if (profile.input_shapes == shapes) return profile;
  std::string compiled;
  for (const CompiledProfile& profile : profiles)
    compiled += "\n  " + profile.label + ": " + describe(profile.input_shapes);
  throw Error(ErrorCode::InputMismatch, "input shapes " + describe(shapes) + " match no profile compiled into model '" +
                                            graph.name + "'; compiled profiles:" + compiled);
}

}  // namespace asc::npusim
