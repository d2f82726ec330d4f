#include "tensor_files.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <cctype>
#include <charconv>
#include <memory>
#include <vector>

namespace asc::validator {
namespace {

bool has_npy_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".npy";
}

Tensor load_raw(const std::filesystem::path& path, const std::string& role, DType dtype) {
  auto bytes = std::make_shared<std::vector<std::byte>>(read_file(path));
  const std::size_t element = dtype_size(dtype);
  if (bytes->size() % element != 0)
    throw Error(ErrorCode::FileFormatInvalid,
                role + " file '" + path.string() + "' has " + std::to_string(bytes->size()) +
                    " bytes, not a whole number of " + std::string(dtype_name(dtype)) + " values (" +
                    std::to_string(element) + " bytes each): truncated, or the wrong --dtype");
  const auto count = static_cast<std::int64_t>(bytes->size() / element);
  std::byte* data = bytes->data();
  const std::size_t size = bytes->size();
  return Tensor(Buffer::wrap(std::move(bytes), data, size), 0, dtype, {count}, {1});
}

}  // namespace

Shape parse_shape_text(std::string_view text, const std::string& what) {
  Shape shape;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    std::int64_t dim = -1;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), dim);
    if (item.empty() || error != std::errc{} || end != item.data() + item.size() || dim < 0)
      throw Error(ErrorCode::ConfigBadValue,
                  what + " '" + std::string(text) +
                      "' is not a shape: give sizes >= 0 separated by commas, e.g. 1,64,112,112");
    shape.push_back(dim);
    if (comma == std::string_view::npos) return shape;
    rest.remove_prefix(comma + 1);
  }
}

Tensor load_tensor_file(const std::filesystem::path& path, const std::string& role, DType raw_dtype,
                        const std::optional<Shape>& shape) {
  Tensor tensor = has_npy_extension(path) ? read_npy(path) : load_raw(path, role, raw_dtype);
  if (!shape) return tensor;
  if (num_elements(*shape) != tensor.numel())
    throw Error(ErrorCode::ValidationShapeMismatch, "--shape " + shape_to_string(*shape) + " has " +
                                                        std::to_string(num_elements(*shape)) +
                                                        " elements but " + role + " file '" + path.string() +
                                                        "' holds " + std::to_string(tensor.numel()) + " " +
                                                        std::string(dtype_name(tensor.dtype())) + " values");
  return tensor.reshaped(*shape);
}

}  // namespace asc::validator
