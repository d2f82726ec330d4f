#include "common/attribute_inputs.hpp"

namespace asc::ops {

std::optional<std::vector<std::int64_t>> ints_from_input_or_attribute(const KernelContext& context,
                                                                      std::size_t input_index,
                                                                      const std::string& attribute) {
  if (context.has_input(input_index)) return context.input(input_index).to_int64s();
  if (context.attrs().has(attribute)) return context.attrs().get_ints(attribute);
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> ints_from_input_or_attribute(const InferenceContext& context,
                                                                      std::size_t input_index,
                                                                      const std::string& attribute) {
  if (context.has_input(input_index)) {
    const Tensor* value = context.input_value(input_index);
    if (value == nullptr) return std::nullopt;
    return value->to_int64s();
  }
  if (context.attrs().has(attribute)) return context.attrs().get_ints(attribute);
  return std::nullopt;
}

}  // namespace asc::ops
