#include "model_description.hpp"

namespace asc::bench {
namespace {

// Python's tuple spelling: (1, 3, 224, 224), (5,), ().
std::string python_tuple(const std::vector<std::int64_t>& dims) {
  std::string text = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i == 0 ? "" : ", ") + std::to_string(dims[i]);
  return text + (dims.size() == 1 ? ",)" : ")");
}

}  // namespace

std::string describe_values(const std::string& heading, const std::vector<ValueInfo>& infos,
                            const std::vector<Shape>& declared_shapes, const std::vector<Shape>& run_shapes) {
  std::string text = heading + ":\n";
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const ValueInfo& info = infos[i];
    const Shape& declared = declared_shapes[i];
    const auto real_bytes = static_cast<std::int64_t>(num_elements(run_shapes[i]) * dtype_size(info.dtype));
    bool is_static = true;
    for (const std::int64_t dim : declared) is_static = is_static && dim >= 0;
    const std::int64_t size = is_static ? num_elements(declared) * static_cast<std::int64_t>(dtype_size(info.dtype))
                                        : real_bytes;
    text += "  #" + std::to_string(i) + "    " + info.name + "  " + python_tuple(declared) + "  " +
            std::string(dtype_name(info.dtype)) + "  " + std::to_string(size) + "  " + std::to_string(real_bytes) +
            "\n";
  }
  return text;
}

}  // namespace asc::bench
