#include "core/pattern_helpers.hpp"

#include "core/graph_edits.hpp"

namespace asc::fusion {

std::optional<std::string> other_operand(const Node& binary, const std::string& value) {
  if (binary.inputs.size() != 2) return std::nullopt;
  if (binary.inputs[0] == value && binary.inputs[1] != value) return binary.inputs[1];
  if (binary.inputs[1] == value && binary.inputs[0] != value) return binary.inputs[0];
  return std::nullopt;
}

std::optional<std::int64_t> conv_output_channels(const Graph& graph, const Node& conv) {
  if (conv.inputs.size() < 2) return std::nullopt;
  const auto dims = value_dims(graph, conv.inputs[1]);
  if (!dims || dims->empty() || !(*dims)[0].is_static()) return std::nullopt;
  return (*dims)[0].value;
}

bool same_known_dims(const Graph& graph, const std::string& a, const std::string& b) {
  const auto da = value_dims(graph, a);
  const auto db = value_dims(graph, b);
  if (!da || !db || da->size() != db->size()) return false;
  for (std::size_t i = 0; i < da->size(); ++i) {
    const Dim& x = (*da)[i];
    const Dim& y = (*db)[i];
    const bool known = x.is_static() || !x.symbol.empty();
    if (!known || !(x == y)) return false;
  }
  return true;
}

}  // namespace asc::fusion
