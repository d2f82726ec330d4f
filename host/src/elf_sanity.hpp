// A look at a shared library's ELF headers before dlopen maps it: the loader trusts them, and a
// segment that extends past the end of a truncated file is mapped anyway, so the first touch of
// the missing pages kills the process with SIGBUS instead of failing the dlopen.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace asc::host {

// Why `file` cannot be a complete ELF shared library ("it is 4096 bytes, its program header 2
// (LOAD) needs 15624"), or nothing when its headers fit in the file. Files that are not 64-bit
// ELF are left to dlopen, which refuses them cleanly ("invalid ELF header", "wrong ELF class").
std::optional<std::string> elf_truncation(const std::filesystem::path& file);

}  // namespace asc::host
