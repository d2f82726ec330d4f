#include "input_data.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <cstring>

namespace asc::bench {
namespace {

bool has_npy_extension(const std::string& file) {
  return file.size() > 4 && (file.ends_with(".npy") || file.ends_with(".NPY"));
}

// The file's data: a .npy's array bytes (its dtype must be the input's), a raw file's bytes.
std::vector<std::byte> file_bytes(const std::string& file, const ValueInfo& info) {
  if (has_npy_extension(file)) {
    const Tensor array = read_npy(file).contiguous();
    if (array.dtype() != info.dtype)
      throw Error(ErrorCode::InputMismatch, "input file " + file + " holds " + std::string(dtype_name(array.dtype())) +
                                                ", model input '" + info.name + "' is " +
                                                std::string(dtype_name(info.dtype)));
    const std::byte* data = array.view().raw();
    return {data, data + array.nbytes()};
  }
  return read_file(file);
}

}  // namespace

std::vector<std::byte> pure_infer_bytes(std::size_t bytes, PureDataType type, std::mt19937& generator) {
  std::vector<std::byte> data(bytes, std::byte{0});
  if (type == PureDataType::Random) {
    std::uniform_int_distribution<int> byte(0, 255);
    for (std::byte& b : data) b = static_cast<std::byte>(byte(generator));
  }
  return data;
}

TensorMap sample_tensors(const Sample& sample, const std::vector<ValueInfo>& infos, const std::vector<Shape>& shapes,
                         PureDataType pure_data_type, std::mt19937& generator) {
  TensorMap tensors;
  for (std::size_t input = 0; input < infos.size(); ++input) {
    const ValueInfo& info = infos[input];
    Tensor tensor(info.dtype, shapes[input]);
    const std::vector<std::string>& files = sample.files[input];
    std::vector<std::byte> data;
    for (const std::string& file : files) {
      if (file == kPureInferFile) {
        data = pure_infer_bytes(tensor.nbytes(), pure_data_type, generator);
        continue;
      }
      const std::vector<std::byte> bytes = file_bytes(file == kPaddingFile ? files.front() : file, info);
      data.insert(data.end(), bytes.begin(), bytes.end());
    }
    if (data.size() != tensor.nbytes()) {
      std::string names;
      for (const std::string& file : files) names += (names.empty() ? "" : ",") + file;
      throw Error(ErrorCode::InputMismatch, "ndata size:" + std::to_string(data.size()) + " not match " +
                                                std::to_string(tensor.nbytes()) + ": input " + std::to_string(input) +
                                                " '" + info.name + "' " + std::string(dtype_name(info.dtype)) +
                                                shape_to_string(shapes[input]) + " from " + names);
    }
    // A bool element is 0 or 1; arbitrary bytes (random data, raw files) count as true when non-zero.
    if (info.dtype == DType::Bool)
      for (std::byte& b : data) b = b == std::byte{0} ? std::byte{0} : std::byte{1};
    std::memcpy(tensor.view().raw(), data.data(), data.size());
    tensors[info.name] = std::move(tensor);
  }
  return tensors;
}

}  // namespace asc::bench
