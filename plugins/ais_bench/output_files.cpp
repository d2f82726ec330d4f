#include "output_files.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <cstdio>
#include <span>

namespace asc::bench {
namespace {

// "dir/img.0001.bin" -> "img" (Python's basename(path).split('.')[0]).
std::string base_name(const std::string& file) {
  const std::string name = std::filesystem::path(file).filename().string();
  return name.substr(0, name.find('.'));
}

// Rows [part * rows / parts, (part + 1) * rows / parts) of a contiguous tensor, sharing its buffer.
Tensor part_of(const Tensor& tensor, std::size_t part, std::size_t parts) {
  if (parts == 1) return tensor;
  Shape shape = tensor.shape();
  const std::int64_t rows = shape.front() / static_cast<std::int64_t>(parts);
  const std::size_t row_bytes = tensor.nbytes() / static_cast<std::size_t>(shape.front());
  shape.front() = rows;
  const std::size_t offset = static_cast<std::size_t>(tensor.view().raw() - tensor.buffer()->data()) +
                             part * static_cast<std::size_t>(rows) * row_bytes;
  return Tensor(tensor.buffer(), offset, tensor.dtype(), shape, contiguous_strides(shape));
}

void write_output(const std::filesystem::path& file, const Tensor& tensor, OutputFormat format) {
  switch (format) {
    case OutputFormat::Npy: write_npy(file, tensor); return;
    case OutputFormat::Txt: write_text_atomically(file, txt_of(tensor)); return;
    case OutputFormat::Bin:
      write_file_atomically(file, std::span<const std::byte>(tensor.view().raw(), tensor.nbytes()));
      return;
  }
}

}  // namespace

std::string txt_of(const Tensor& tensor) {
  const std::int64_t columns = tensor.rank() == 0 ? 1 : tensor.shape().back();
  const bool floating = is_floating(tensor.dtype());
  std::string text;
  char buffer[64];
  std::int64_t column = 0;
  if (floating) {
    for (const double value : tensor.to_doubles()) {
      std::snprintf(buffer, sizeof buffer, "%f ", value);
      text += buffer;
      if (++column == columns) text += "\n", column = 0;
    }
  } else {
    for (const std::int64_t value : tensor.to_int64s()) {
      text += std::to_string(value) + " ";
      if (++column == columns) text += "\n", column = 0;
    }
  }
  return text;
}

std::vector<SampleFiles> save_outputs(const std::vector<Tensor>& outputs, const std::filesystem::path& prefix,
                                      const Sample& sample, OutputFormat format, std::size_t index) {
  const std::size_t parts = sample.files_per_batch();
  std::vector<SampleFiles> samples(parts);
  for (std::size_t part = 0; part < parts; ++part) {
    samples[part].sample_id = index * parts + part;
    for (const std::vector<std::string>& input_files : sample.files) samples[part].infiles.push_back(input_files[part]);
    // A model without inputs runs once on nothing; its outputs are named as generated data's are.
    if (samples[part].infiles.empty()) samples[part].infiles.push_back(kPureInferFile);
  }
  for (std::size_t output = 0; output < outputs.size(); ++output) {
    const Tensor tensor = outputs[output].contiguous();
    if (parts > 1 && (tensor.rank() == 0 || tensor.shape().front() % static_cast<std::int64_t>(parts) != 0))
      throw Error(ErrorCode::InputMismatch,
                  "save out files error array shape:" + shape_to_string(tensor.shape()) + " files_count_perbatch:" +
                      std::to_string(parts) + ": output " + std::to_string(output) +
                      " does not split over the batch's input files along axis 0");
    for (std::size_t part = 0; part < parts; ++part) {
      if (samples[part].infiles.front() == kPaddingFile) continue;
      const std::filesystem::path file =
          prefix / (base_name(samples[part].infiles.front()) + "_" + std::to_string(output) + "." + extension_of(format));
      write_output(file, part_of(tensor, part, parts), format);
      samples[part].outfiles.push_back(file.string());
    }
  }
  std::vector<SampleFiles> written;
  for (SampleFiles& files : samples)
    if (files.infiles.front() != kPaddingFile) written.push_back(std::move(files));
  return written;
}

}  // namespace asc::bench
