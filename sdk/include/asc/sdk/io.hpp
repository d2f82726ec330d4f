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
// partial file and a failed write leaves nothing behind. A symlink at `path` is written through
// (its final target is replaced, the link stays); a device, FIFO or socket (/dev/stdout, /dev/null)
// is written directly. Temporary files left by a process that died are removed on the first write
// into their directory. Throws EE4003 naming the path.
void write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes);
void write_text_atomically(const std::filesystem::path& path, std::string_view text);

// SIGINT, SIGTERM and SIGHUP then remove the temporary files of the writes in progress before the
// process dies of the signal (a signal the process ignores stays ignored). For executables' main().
void remove_temporary_files_on_signal();

// True when both paths exist and are the same file (same device and inode: symlinks, hard links
// and other spellings of one file included).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);
// Throws EE4003 when `output` is the same file as one of `inputs`, naming both, before anything is
// written; `what` says which output it is ("--output", "the JSON report").
void refuse_output_over_inputs(const std::filesystem::path& output, std::span<const std::filesystem::path> inputs,
                               const std::string& what);

// NumPy .npy (format 1.0/2.0/3.0, little-endian, C or Fortran order). Throws EE4004 naming the
// file for anything malformed or truncated. bfloat16, which numpy lacks, is written as the
// structured type [('bfloat16', '<u2')] (numpy loads it; the field holds the raw bits) and read
// back from it or from ml_dtypes' 'bfloat16'.
Tensor read_npy(const std::filesystem::path& path);
Tensor decode_npy(std::span<const std::byte> bytes, const std::string& origin);
std::vector<std::byte> encode_npy(const Tensor& tensor);
void write_npy(const std::filesystem::path& path, const Tensor& tensor);

}  // namespace asc
