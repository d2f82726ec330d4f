// Which files feed which inference, by ais_bench's rules (io_oprations.py):
// - --input lists files: they are cut into one consecutive group per model input
//   ("a.bin,b.bin,c.bin,d.bin" for two inputs: a,b feed input 0 and c,d input 1);
// - --input lists directories, one per model input: each one's .bin/.npy files in natural
//   order (file10 after file2);
// - when a file holds less than input 0's tensor, several consecutive files make up one
//   batch (tensor bytes / file bytes of them), the last batch padded with its first file;
// - no --input: one inference on generated data ("pure_infer_data").
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace asc::bench {

// ais_bench's stand-in names: generated data, and a batch slot padded with the batch's first file.
inline constexpr const char* kPureInferFile = "pure_infer_data";
inline constexpr const char* kPaddingFile = "padding_infer_fake_file";

// One inference's inputs: per model input, the files concatenated into its tensor.
struct Sample {
  std::vector<std::vector<std::string>> files;
  std::size_t files_per_batch() const { return files.empty() ? 1 : files.front().size(); }
};

// Per model input, its files in order. Throws EE4001 for a missing file or directory and EE5007
// for a list that does not split over `input_count` inputs, or a directory without data files.
std::vector<std::vector<std::string>> files_per_input(const std::vector<std::string>& inputs, std::size_t input_count);

// Groups the files into inferences; `input0_bytes` is input 0's tensor size as run and
// `input0_rows` its axis 0 (1 for a scalar). EE8003 when the first file's size does not divide it
// (ais_bench's "tensorsize ... filesize ... not match"), or when the files it would take to make
// one batch do not each hold whole rows of axis 0 (naming the file as too small).
std::vector<Sample> group_samples(const std::vector<std::vector<std::string>>& files, std::size_t input0_bytes,
                                  std::int64_t input0_rows);

// The one inference on generated data.
Sample pure_infer_sample(std::size_t input_count);

// Data bytes of an input file: the array of a .npy, the whole of any other file.
std::size_t file_data_bytes(const std::filesystem::path& file);

// Python's natural_sort key order: digit runs compare as numbers, the rest case-insensitively.
bool natural_less(const std::string& a, const std::string& b);

}  // namespace asc::bench
