// expected_pass.txt: the sorted list of test ids ("node/test_abs") that must pass.
#pragma once

#include <filesystem>
#include <set>
#include <string>

namespace asc::conformance {

// One id per line; blank lines and '#' comments ignored. Throws asc::Error (EE4001/EE4002).
std::set<std::string> read_expected_list(const std::filesystem::path& file);
// Writes the ids sorted, under a comment saying how the file is made (atomically, EE4003).
void write_expected_list(const std::filesystem::path& file, const std::set<std::string>& ids);

}  // namespace asc::conformance
