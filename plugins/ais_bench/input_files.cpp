#include "input_files.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <cctype>
#include <system_error>

namespace asc::bench {
namespace {

bool is_data_file(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  return extension == ".npy" || extension == ".NPY" || extension == ".bin" || extension == ".BIN";
}

bool has_npy_file_extension(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  return extension == ".npy" || extension == ".NPY";
}

std::vector<std::string> data_files_in(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (is_data_file(entry.path())) files.push_back(entry.path().string());
  if (error)
    throw Error(ErrorCode::FileReadFailed, "--input directory '" + dir + "' cannot be listed: " + error.message());
  if (files.empty())
    throw Error(ErrorCode::ConfigBadValue,
                "no input valid [*.npy *.NPY *.bin *.BIN] files in folder:" + dir);
  std::sort(files.begin(), files.end(), natural_less);
  return files;
}

// ais_bench's list_split: chunks of `n`, the last padded with kPaddingFile.
std::vector<std::vector<std::string>> chunks_of(const std::vector<std::string>& items, std::size_t n) {
  std::vector<std::vector<std::string>> chunks;
  for (std::size_t start = 0; start < items.size(); start += n) {
    std::vector<std::string> chunk(items.begin() + static_cast<std::ptrdiff_t>(start),
                                   items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), start + n)));
    chunk.resize(n, kPaddingFile);
    chunks.push_back(std::move(chunk));
  }
  return chunks;
}

std::string input_count_text(std::size_t count) {
  return std::to_string(count) + " input" + (count == 1 ? "" : "s");
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool digit_a = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool digit_b = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (digit_a && digit_b) {
      std::size_t end_a = i, end_b = j;
      while (end_a < a.size() && std::isdigit(static_cast<unsigned char>(a[end_a]))) ++end_a;
      while (end_b < b.size() && std::isdigit(static_cast<unsigned char>(b[end_b]))) ++end_b;
      // Compare as numbers without overflow: strip leading zeros, then length, then digits.
      std::string_view run_a(a.data() + i, end_a - i), run_b(b.data() + j, end_b - j);
      while (run_a.size() > 1 && run_a.front() == '0') run_a.remove_prefix(1);
      while (run_b.size() > 1 && run_b.front() == '0') run_b.remove_prefix(1);
      if (run_a.size() != run_b.size()) return run_a.size() < run_b.size();
      if (run_a != run_b) return run_a < run_b;
      i = end_a;
      j = end_b;
      continue;
    }
    const auto lower_a = std::tolower(static_cast<unsigned char>(a[i]));
    const auto lower_b = std::tolower(static_cast<unsigned char>(b[j]));
    if (lower_a != lower_b) return lower_a < lower_b;
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

std::vector<std::vector<std::string>> files_per_input(const std::vector<std::string>& inputs,
                                                      std::size_t input_count) {
  if (input_count == 0)
    throw Error(ErrorCode::InputMismatch, "--input is given but the model has no inputs");
  std::error_code error;
  if (std::filesystem::is_directory(inputs.front(), error)) {
    if (inputs.size() != input_count)
      throw Error(ErrorCode::ConfigBadValue, "Invalid args. args input dir num:" + std::to_string(inputs.size()) +
                                                 " not equal to model inputs num:" + std::to_string(input_count));
    std::vector<std::vector<std::string>> files;
    for (const std::string& dir : inputs) {
      if (!std::filesystem::is_directory(dir, error))
        throw Error(ErrorCode::FileNotFound, "Invalid args. " + dir + " of input args is not a real dir path");
      files.push_back(data_files_in(dir));
    }
    return files;
  }
  for (std::size_t index = 0; index < inputs.size(); ++index)
    if (!std::filesystem::is_regular_file(inputs[index], error))
      throw Error(ErrorCode::FileNotFound, "Invalid input args. file_path:" + inputs[index] +
                                               " not exist (--input entry " + std::to_string(index) + ")");
  if (inputs.size() < input_count || inputs.size() % input_count != 0)
    throw Error(ErrorCode::ConfigBadValue, "--input lists " + std::to_string(inputs.size()) +
                                               " file(s) for a model with " + input_count_text(input_count) +
                                               ": give the same number of files for every input, input by input");
  return chunks_of(inputs, inputs.size() / input_count);
}

std::vector<Sample> group_samples(const std::vector<std::vector<std::string>>& files, std::size_t input0_bytes,
                                  std::int64_t input0_rows) {
  const std::size_t file_bytes = file_data_bytes(files.front().front());
  if (file_bytes == 0 || input0_bytes % file_bytes != 0)
    throw Error(ErrorCode::InputMismatch, "arg0 tensorsize: " + std::to_string(input0_bytes) +
                                              " filesize: " + std::to_string(file_bytes) + " not match (" +
                                              files.front().front() + " for input 0)");
  const std::size_t per_batch = input0_bytes / file_bytes;
  // Each file of a multi-file batch is a slice of rows along axis 0, as every output is split.
  if (per_batch > 1 && (input0_rows < 1 || input0_rows % static_cast<std::int64_t>(per_batch) != 0))
    throw Error(ErrorCode::InputMismatch,
                "input file '" + files.front().front() + "' is too small: it holds " + std::to_string(file_bytes) +
                    " bytes, input 0 needs " + std::to_string(input0_bytes) + ". Smaller files make up a batch only " +
                    "as whole rows of axis 0: " + std::to_string(per_batch) + " files of this size would each need " +
                    "1/" + std::to_string(per_batch) + " of the " + std::to_string(input0_rows) +
                    " row(s) input 0 has (give a file of the input's size, or --dymBatch/--batchsize)");
  const std::size_t runs = (files.front().size() + per_batch - 1) / per_batch;
  std::vector<std::vector<std::vector<std::string>>> batches;  // [input][run] -> files
  for (const std::vector<std::string>& input_files : files) batches.push_back(chunks_of(input_files, per_batch));
  std::vector<Sample> samples(runs);
  for (std::size_t run = 0; run < runs; ++run)
    for (std::size_t input = 0; input < files.size(); ++input) {
      if (run >= batches[input].size())
        throw Error(ErrorCode::ConfigBadValue, "input " + std::to_string(input) + " has " +
                                                   std::to_string(files[input].size()) + " file(s), input 0 has " +
                                                   std::to_string(files.front().size()) +
                                                   ": every input needs a file for every inference");
      samples[run].files.push_back(batches[input][run]);
    }
  return samples;
}

Sample pure_infer_sample(std::size_t input_count) {
  return Sample{std::vector<std::vector<std::string>>(input_count, std::vector<std::string>{kPureInferFile})};
}

std::size_t file_data_bytes(const std::filesystem::path& file) {
  if (has_npy_file_extension(file)) return read_npy(file).nbytes();
  std::error_code error;
  const auto size = std::filesystem::file_size(file, error);
  if (error) throw Error(ErrorCode::FileReadFailed, "cannot read the size of '" + file.string() + "': " + error.message());
  return static_cast<std::size_t>(size);
}

}  // namespace asc::bench
