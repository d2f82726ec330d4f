// Einsum equations: parsing ("bij,bjk->bik", "...ij->...ji", implicit outputs) and resolving
// ellipses against operand ranks into integer labels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <asc/sdk/graph.hpp>

namespace asc::ops {

// Labels: a letter is its character code; the e-th dimension covered by "..." (counted from the
// left of the broadcast ellipsis block) is kEllipsisLabel + e. kEllipsisLabel alone in a parsed
// term marks where the ellipsis sits before ranks are known.
inline constexpr int kEllipsisLabel = 128;

struct EinsumEquation {
  std::vector<std::vector<int>> terms;  // per operand, in order; kEllipsisLabel marks "..."
  std::vector<int> output;              // explicit or implicit output, kEllipsisLabel marks "..."
  bool has_ellipsis = false;            // any term uses "..."
};

// Throws InvalidOperator naming `node` for malformed equations or a term count that does not
// match `operand_count`.
EinsumEquation parse_einsum(const std::string& equation, std::size_t operand_count, const Node& node);

// The equation with every "..." expanded to concrete labels, given each operand's rank.
struct EinsumLabels {
  std::vector<std::vector<int>> operands;  // one label per dimension
  std::vector<int> output;
  int label_count = kEllipsisLabel;  // labels are < label_count
};

EinsumLabels resolve_einsum(const EinsumEquation& equation, const std::vector<std::int64_t>& ranks, const Node& node);

// Size of every label (0 for labels not used), checking that all dimensions carrying a label
// agree or are 1 (broadcast).
std::vector<std::int64_t> einsum_label_sizes(const EinsumLabels& labels, const std::vector<Shape>& shapes,
                                             const Node& node);

}  // namespace asc::ops
