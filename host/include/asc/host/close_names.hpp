// "Did you mean" suggestions for misspelt names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace asc::host {

// Up to `limit` candidates within a small edit distance of `wanted`, closest first.
std::vector<std::string> closest_names(std::string_view wanted, const std::vector<std::string>& candidates,
                                       std::size_t limit = 3);

// " (did you mean 'a' or 'b'?)", or "" when nothing is close.
std::string did_you_mean(std::string_view wanted, const std::vector<std::string>& candidates);

// "a, b, c"
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace asc::host
