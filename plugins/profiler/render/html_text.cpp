#include "render/html_text.hpp"

namespace asc::profiler {

std::string shortened(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0, i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    if (chars == max_chars) return std::string(text.substr(0, i)) + "...";
    ++chars;
  }
  return std::string(text);
}

std::string category_color(std::string_view category) {
  if (category == "cube") return "#4e79a7";
  if (category == "vector") return "#59a14f";
  if (category == "data_movement") return "#f28e2b";
  if (category == "memcpy") return "#e15759";
  if (category == "aicpu") return "#b07aa1";
  if (category == "communication") return "#76b7b2";
  return "#9c9c9c";
}

}  // namespace asc::profiler
