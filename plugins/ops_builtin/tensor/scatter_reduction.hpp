// ScatterND and ScatterElements combine updates with the data as their 'reduction' attribute
// (opset 16) says: none (overwrite), add or mul.
#pragma once

#include <string>

#include <asc/sdk/error.hpp>
#include <asc/sdk/graph.hpp>

namespace asc::ops {

enum class ScatterReduction { None, Add, Mul };

inline ScatterReduction scatter_reduction(const Node& node, std::int64_t opset) {
  if (opset < 16) return ScatterReduction::None;
  const std::string reduction = node.attributes.get_string("reduction", "none");
  if (reduction == "none") return ScatterReduction::None;
  if (reduction == "add") return ScatterReduction::Add;
  if (reduction == "mul") return ScatterReduction::Mul;
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": unsupported reduction '" + reduction + "'");
}

// Applies one update to `target`. bool add/mul are logical or/and.
template <class T> void scatter_combine(T& target, T update, ScatterReduction reduction) {
  switch (reduction) {
    case ScatterReduction::None: target = update; break;
    case ScatterReduction::Add: target = static_cast<T>(target + update); break;
    case ScatterReduction::Mul: target = static_cast<T>(target * update); break;
  }
}

}  // namespace asc::ops
