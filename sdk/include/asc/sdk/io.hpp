// File helpers shared by plugins: whole-file reads, atomic writes, and .npy tensors.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "asc/sdk/tensor.hpp"

namespace asc {

// Throws EE4001 (missing) / EE4002 (unreadable) naming the path.
std::vector<std::byte> read_file(const std::filesystem::path& path);
// Writes to a temporary file beside `path`, then renames it into place: readers never see a
// partial file and a failed write leaves nothing behind. Throws EE4003 naming the path.
void write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes);
void write_text_atomically(const std::filesystem::path& path, std::string_view text);

// NumPy .npy (format 1.0/2.0/3.0, little-endian, C or Fortran order). Throws EE4004 naming the
// file for anything malformed or truncated. bfloat16, which numpy lacks, is written as the
// structured type [('bfloat16', '<u2')] (numpy loads it; the field holds the raw bits) and read
// back from it or from ml_dtypes' 'bfloat16'.
Tensor read_npy(const std::filesystem::path& path);
Tensor decode_npy(std::span<const std::byte> bytes, const std::string& origin);
std::vector<std::byte> encode_npy(const Tensor& tensor);
void write_npy(const std::filesystem::path& path, const Tensor& tensor);

}  // namespace asc
