// The first `count` entries of a context's input list, padded with nullptr (= omitted): the
// fused operators hand a prefix of their inputs to the operator they are built on.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace asc::fusion {

template <class T> std::vector<const T*> input_prefix(const std::vector<const T*>& inputs, std::size_t count) {
  std::vector<const T*> prefix(inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(std::min(count, inputs.size())));
  prefix.resize(count, nullptr);
  return prefix;
}

template <class T> const T* input_at(const std::vector<const T*>& inputs, std::size_t index) {
  return index < inputs.size() ? inputs[index] : nullptr;
}

}  // namespace asc::fusion
