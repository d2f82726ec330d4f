#include "analysis/shape_text.hpp"

#include <charconv>

#include "analysis/text_format.hpp"

namespace asc::profiler {
namespace {

std::optional<Dims> parse_dims(std::string entry) {
  entry = trim(entry);
  if (!entry.empty() && entry.front() == '[' && entry.back() == ']')
    entry = trim(entry.substr(1, entry.size() - 2));
  Dims dims;
  if (entry.empty()) return dims;  // a scalar
  std::size_t start = 0;
  while (start <= entry.size()) {
    const std::size_t comma = std::min(entry.find(',', start), entry.size());
    const std::string item = trim(std::string_view(entry).substr(start, comma - start));
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size()) return std::nullopt;
    dims.push_back(value);
    start = comma + 1;
  }
  return dims;
}

}  // namespace

std::vector<std::string> split_operands(std::string_view text) {
  std::vector<std::string> items;
  if (trim(text).empty()) return items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t semicolon = std::min(text.find(';', start), text.size());
    items.push_back(trim(text.substr(start, semicolon - start)));
    start = semicolon + 1;
  }
  return items;
}

std::vector<std::optional<Dims>> parse_shape_list(std::string_view text) {
  std::vector<std::optional<Dims>> shapes;
  for (const std::string& entry : split_operands(text)) shapes.push_back(parse_dims(entry));
  return shapes;
}

std::string operand_item(std::string_view list, std::size_t index) {
  const auto items = split_operands(list);
  return index < items.size() ? items[index] : std::string();
}

std::string dims_text(const Dims& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text;
}

std::int64_t round_up(std::int64_t value, std::int64_t block) {
  return (value + block - 1) / block * block;
}

}  // namespace asc::profiler
