// Loads the tensors op_validate compares: .npy files (dtype and shape in the header) and raw
// .bin files (dtype given, shape given or flat).
#pragma once

#include <asc/sdk/tensor.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace asc::validator {

// "1,64,112,112" -> {1,64,112,112}; throws EE5007 naming `what` for anything else.
Shape parse_shape_text(std::string_view text, const std::string& what);

// Loads `path` (`role` names it in errors: "golden", "actual"). A .npy file keeps its dtype; any
// other file is raw little-endian `raw_dtype` values. With `shape`, the tensor is given that
// shape. Throws EE4001 (missing), EE4002 (unreadable), EE4004 (malformed or truncated .npy, or
// a raw file whose size is not a multiple of the element size), EE7001 (`shape` does not match
// the element count).
Tensor load_tensor_file(const std::filesystem::path& path, const std::string& role, DType raw_dtype,
                        const std::optional<Shape>& shape);

}  // namespace asc::validator
