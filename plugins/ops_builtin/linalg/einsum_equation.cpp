#include "linalg/einsum_equation.hpp"

#include <algorithm>
#include <cctype>

#include <asc/sdk/error.hpp>

namespace asc::ops {
namespace {

[[noreturn]] void einsum_equation_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": einsum equation " + what);
}

std::vector<int> parse_term(const std::string& term, const Node& node) {
  std::vector<int> labels;
  bool seen_ellipsis = false;
  for (std::size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (std::isalpha(static_cast<unsigned char>(c))) {
      labels.push_back(static_cast<unsigned char>(c));
    } else if (term.compare(i, 3, "...") == 0) {
      if (seen_ellipsis) einsum_equation_fail(node, "term '" + term + "' has more than one ellipsis");
      seen_ellipsis = true;
      labels.push_back(kEllipsisLabel);
      i += 2;
    } else {
      einsum_equation_fail(node, "term '" + term + "' has the invalid character '" + std::string(1, c) + "'");
    }
  }
  return labels;
}

}  // namespace

EinsumEquation parse_einsum(const std::string& equation, std::size_t operand_count, const Node& node) {
  std::string text;
  for (const char c : equation)
    if (c != ' ') text.push_back(c);
  const std::size_t arrow = text.find("->");
  const std::string lhs = text.substr(0, arrow);

  EinsumEquation result;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = lhs.find(',', start);
    result.terms.push_back(parse_term(lhs.substr(start, comma - start), node));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (result.terms.size() != operand_count)
    einsum_equation_fail(node, "'" + equation + "' has " + std::to_string(result.terms.size()) +
                                   " terms for " + std::to_string(operand_count) + " inputs");

  std::vector<int> occurrences(kEllipsisLabel, 0);
  for (const auto& term : result.terms)
    for (const int label : term) {
      if (label == kEllipsisLabel) result.has_ellipsis = true;
      else ++occurrences[label];
    }

  if (arrow != std::string::npos) {
    result.output = parse_term(text.substr(arrow + 2), node);
    std::vector<int> used(kEllipsisLabel + 1, 0);
    for (const int label : result.output) {
      if (used[label]++ != 0) einsum_equation_fail(node, "'" + equation + "' repeats a label in its output");
      if (label != kEllipsisLabel && occurrences[label] == 0)
        einsum_equation_fail(node, "'" + equation + "' has an output label that no input uses");
    }
  } else {
    // Implicit output: the ellipsis first, then the labels used exactly once, in character order.
    if (result.has_ellipsis) result.output.push_back(kEllipsisLabel);
    for (int label = 0; label < kEllipsisLabel; ++label)
      if (occurrences[label] == 1) result.output.push_back(label);
  }
  return result;
}

EinsumLabels resolve_einsum(const EinsumEquation& equation, const std::vector<std::int64_t>& ranks, const Node& node) {
  // The ellipsis block is as wide as the widest operand's, right-aligned like broadcasting.
  std::int64_t ellipsis_rank = 0;
  std::vector<std::int64_t> covered(equation.terms.size(), 0);
  for (std::size_t i = 0; i < equation.terms.size(); ++i) {
    const auto& term = equation.terms[i];
    const bool has = std::find(term.begin(), term.end(), kEllipsisLabel) != term.end();
    const std::int64_t letters = static_cast<std::int64_t>(term.size()) - (has ? 1 : 0);
    if (has ? ranks[i] < letters : ranks[i] != letters)
      einsum_equation_fail(node, "term " + std::to_string(i) + " does not match the rank " +
                                     std::to_string(ranks[i]) + " of input " + std::to_string(i));
    covered[i] = ranks[i] - letters;
    ellipsis_rank = std::max(ellipsis_rank, covered[i]);
  }

  auto expand = [&](const std::vector<int>& term, std::int64_t width) {
    std::vector<int> labels;
    for (const int label : term) {
      if (label != kEllipsisLabel) {
        labels.push_back(label);
        continue;
      }
      for (std::int64_t e = ellipsis_rank - width; e < ellipsis_rank; ++e)
        labels.push_back(kEllipsisLabel + static_cast<int>(e));
    }
    return labels;
  };

  EinsumLabels result;
  result.label_count = kEllipsisLabel + static_cast<int>(ellipsis_rank);
  for (std::size_t i = 0; i < equation.terms.size(); ++i) result.operands.push_back(expand(equation.terms[i], covered[i]));
  result.output = expand(equation.output, ellipsis_rank);
  return result;
}

std::vector<std::int64_t> einsum_label_sizes(const EinsumLabels& labels, const std::vector<Shape>& shapes,
                                             const Node& node) {
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(labels.label_count), 0);
  std::vector<bool> seen(sizes.size(), false);
  for (std::size_t i = 0; i < labels.operands.size(); ++i)
    for (std::size_t d = 0; d < labels.operands[i].size(); ++d) {
      const auto label = static_cast<std::size_t>(labels.operands[i][d]);
      const std::int64_t dim = shapes[i][d];
      if (!seen[label] || sizes[label] == 1) sizes[label] = dim;
      else if (dim != 1 && dim != sizes[label])
        einsum_equation_fail(node, "gives one label the incompatible sizes " + std::to_string(sizes[label]) +
                                       " and " + std::to_string(dim));
      seen[label] = true;
    }
  return sizes;
}

}  // namespace asc::ops
