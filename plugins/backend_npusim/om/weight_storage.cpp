#include "om/weight_storage.hpp"

#include <set>

namespace asc::npusim {

std::map<std::string, DType> weight_storage_dtypes(const CompiledModel& model) {
  std::map<std::string, std::set<DType>> device_dtypes;
  for (const CompiledProfile& profile : model.profiles)
    for (const ValuePlacement& placement : profile.values)
      if (model.graph.is_initializer(placement.value)) device_dtypes[placement.value].insert(placement.dtype);

  std::map<std::string, DType> stored;
  for (const auto& [name, tensor] : model.graph.initializers) {
    DType dtype = tensor.dtype();
    const auto it = device_dtypes.find(name);
    if (dtype == DType::Float32 && it != device_dtypes.end() && it->second.size() == 1) {
      const DType device = *it->second.begin();
      if (device == DType::Float16 || device == DType::BFloat16) dtype = device;
    }
    stored[name] = dtype;
  }
  return stored;
}

}  // namespace asc::npusim
