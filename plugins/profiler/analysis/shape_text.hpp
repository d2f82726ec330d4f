// msprof's spelling of operand lists: "1,3,224,224;64,3,7,7" (one entry per operand, ';'
// between operands, ',' between dimensions; "" or " " for a scalar). Dtypes and formats use the
// same ';' separator: "FLOAT16;FLOAT16", "NC1HWC0;FRACTAL_Z".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asc::profiler {

using Dims = std::vector<std::int64_t>;

// One entry per operand; nullopt for an entry that is not a list of integers (e.g. "?").
// Brackets around an entry ("[1,2]") are accepted.
std::vector<std::optional<Dims>> parse_shape_list(std::string_view text);
// ';'-separated items, trimmed.
std::vector<std::string> split_operands(std::string_view text);

// The item at `index` of a ';'-separated list, or "" when there is none.
std::string operand_item(std::string_view list, std::size_t index);

std::string dims_text(const Dims& dims);  // "1,3,224,224"

// Smallest multiple of `block` that is >= value (value > 0).
std::int64_t round_up(std::int64_t value, std::int64_t block);

}  // namespace asc::profiler
