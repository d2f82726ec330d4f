#include "asc/sdk/parser.hpp"

#include <charconv>

#include <asc/sdk/error.hpp>

namespace asc {
namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::vector<std::int64_t> parse_dims(std::string_view dims_text, std::string_view entry) {
  std::vector<std::int64_t> dims;
  if (trim(dims_text).empty()) return dims;
  while (true) {
    const auto comma = dims_text.find(',');
    const std::string_view item = trim(dims_text.substr(0, comma));
    std::int64_t dim = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), dim);
    if (item.empty() || error != std::errc{} || end != item.data() + item.size() || dim < -1)
      throw Error(ErrorCode::InputShapeInvalid, "input shape entry '" + std::string(entry) + "': '" + std::string(item) +
                                                    "' is not a dimension (a size >= 0, or -1 for dynamic)");
    dims.push_back(dim);
    if (comma == std::string_view::npos) return dims;
    dims_text.remove_prefix(comma + 1);
  }
}

}  // namespace

std::map<std::string, std::vector<std::int64_t>> parse_input_shape_spec(std::string_view text) {
  std::map<std::string, std::vector<std::int64_t>> shapes;
  while (!text.empty()) {
    const auto semicolon = text.find(';');
    const std::string_view entry = trim(text.substr(0, semicolon));
    text = semicolon == std::string_view::npos ? std::string_view{} : text.substr(semicolon + 1);
    if (entry.empty()) continue;
    const auto colon = entry.rfind(':');
    const std::string name(trim(entry.substr(0, colon == std::string_view::npos ? 0 : colon)));
    if (colon == std::string_view::npos || name.empty())
      throw Error(ErrorCode::InputShapeInvalid,
                  "input shape entry '" + std::string(entry) + "' is not of the form name:d0,d1,...");
    if (!shapes.emplace(name, parse_dims(entry.substr(colon + 1), entry)).second)
      throw Error(ErrorCode::InputShapeInvalid, "input shape gives input '" + name + "' twice");
  }
  return shapes;
}

}  // namespace asc
