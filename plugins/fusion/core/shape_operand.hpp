// What a Reshape will produce, read from its shape operand even when that operand is computed:
// torch.onnx builds reshape targets as Concat(Unsqueeze(Gather(Shape(x), i)), ...), which with a
// dynamic batch never becomes a constant. Each piece that comes from Shape(v)[i] stands for v's
// dim i (a symbol such as "batch" when dynamic), so patterns can be checked without static shapes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <asc/sdk/graph.hpp>

#include "core/value_uses.hpp"

namespace asc::fusion {

// The dims a Reshape of `input` to `shape_operand` yields (0 copies the input's dim, as with
// allowzero=0; one -1 is inferred when the rest is static); nullopt when any dim cannot be
// told. Prefers the Reshape output's own type info when it is fully known.
std::optional<std::vector<Dim>> reshape_result_dims(const Graph& graph, const ValueUses& uses, const Node& reshape);

}  // namespace asc::fusion
