#include "asc/host/close_names.hpp"

#include <algorithm>
#include <utility>

namespace asc::host {
namespace {

// The edit (Levenshtein) distance of `a` and `b` when it is at most `bound`, otherwise bound + 1.
// The distance is at least the difference of the lengths, and the smallest entry of a row of the
// table never decreases from one row to the next, so a candidate is dropped as soon as either is
// past the bound: a mistyped name thousands of characters long costs one comparison per candidate,
// not a table of its length times the candidate's.
std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t bound) {
  const std::size_t length_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (length_gap > bound) return bound + 1;
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    std::size_t row_minimum = current[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      row_minimum = std::min(row_minimum, current[j]);
    }
    if (row_minimum > bound) return bound + 1;
    std::swap(previous, current);
  }
  return std::min(previous[b.size()], bound + 1);
}

}  // namespace

std::vector<std::string> closest_names(std::string_view wanted, const std::vector<std::string>& candidates,
                                       std::size_t limit) {
  const std::size_t allowed = std::max<std::size_t>(2, wanted.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance_within(wanted, candidate, allowed);
    if (distance <= allowed) scored.emplace_back(distance, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (std::size_t i = 0; i < scored.size() && names.size() < limit; ++i)
    if (std::find(names.begin(), names.end(), scored[i].second) == names.end()) names.push_back(scored[i].second);
  return names;
}

std::string did_you_mean(std::string_view wanted, const std::vector<std::string>& candidates) {
  const auto names = closest_names(wanted, candidates);
  if (names.empty()) return "";
  std::string text = " (did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += "'" + names[i] + "'";
  }
  return text + "?)";
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += separator;
    text += items[i];
  }
  return text;
}

}  // namespace asc::host
