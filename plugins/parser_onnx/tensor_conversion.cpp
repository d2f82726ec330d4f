#include "tensor_conversion.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "model_label.hpp"
#include "onnx_types.hpp"

namespace asc::parser_onnx {
namespace {

static_assert(std::endian::native == std::endian::little, "raw_data is little-endian: big-endian hosts need swaps");

struct TensorSite {
  const std::string& label;
  const std::filesystem::path& model;
  std::string prefix() const { return model_label(model) + ": " + label; }
};

Tensor from_raw_data(onnx::TensorProto& proto, DType dtype, const Shape& shape, std::size_t count,
                     const TensorSite& site) {
  const std::size_t nbytes = count * dtype_size(dtype);
  if (proto.raw_data().size() != nbytes)
    throw Error(ErrorCode::ModelCorrupt, site.prefix() + " holds " + std::to_string(proto.raw_data().size()) +
                                             " bytes of raw_data; shape " + shape_to_string(shape) + " of " +
                                             std::string(dtype_name(dtype)) + " needs " + std::to_string(nbytes));
  if (nbytes == 0) return Tensor(dtype, shape);
  const std::shared_ptr<std::string> bytes(proto.release_raw_data());
  auto* data = reinterpret_cast<std::byte*>(bytes->data());
  if (dtype == DType::Bool)  // any non-zero byte is true; a bool object must hold 0 or 1
    for (std::size_t i = 0; i < nbytes; ++i) data[i] = data[i] != std::byte{0} ? std::byte{1} : std::byte{0};
  if (reinterpret_cast<std::uintptr_t>(data) % dtype_size(dtype) != 0) {
    Tensor copy(dtype, shape);
    std::memcpy(copy.view().raw(), data, nbytes);
    return copy;
  }
  return Tensor(Buffer::wrap(bytes, data, nbytes), 0, dtype, shape, contiguous_strides(shape));
}

// One element of a typed field: float16/bfloat16 arrive as their bit patterns in int32_data.
template <class T, class V> T element_from(V value) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>)
    return std::bit_cast<T>(static_cast<std::uint16_t>(value));
  else if constexpr (std::is_same_v<T, bool>)
    return value != 0;
  else
    return static_cast<T>(value);
}

template <class Field>
Tensor from_field(const Field& values, const char* field_name, DType dtype, const Shape& shape, std::size_t count,
                  const TensorSite& site) {
  if (static_cast<std::size_t>(values.size()) != count)
    throw Error(ErrorCode::ModelCorrupt, site.prefix() + " has " + std::to_string(values.size()) + " values in " +
                                             field_name + "; shape " + shape_to_string(shape) + " needs " +
                                             std::to_string(count));
  Tensor tensor(dtype, shape);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = tensor.data<T>();
    for (std::size_t i = 0; i < count; ++i) out[i] = element_from<T>(values[static_cast<int>(i)]);
  });
  return tensor;
}

}  // namespace

Tensor tensor_from_proto(onnx::TensorProto& proto, const std::string& label, const std::filesystem::path& model) {
  const TensorSite site{label, model};
  const auto dtype = dtype_from_onnx(proto.data_type());
  if (!dtype)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                site.prefix() + " has element type " + onnx_type_name(proto.data_type()) + ", which asc does not support");
  const std::size_t count = element_count(proto, label, model);
  const Shape shape(proto.dims().begin(), proto.dims().end());
  if (proto.has_raw_data()) return from_raw_data(proto, *dtype, shape, count, site);
  switch (*dtype) {
    case DType::Float32: return from_field(proto.float_data(), "float_data", *dtype, shape, count, site);
    case DType::Float64: return from_field(proto.double_data(), "double_data", *dtype, shape, count, site);
    case DType::Int64: return from_field(proto.int64_data(), "int64_data", *dtype, shape, count, site);
    case DType::UInt32:
    case DType::UInt64: return from_field(proto.uint64_data(), "uint64_data", *dtype, shape, count, site);
    default: return from_field(proto.int32_data(), "int32_data", *dtype, shape, count, site);
  }
}

}  // namespace asc::parser_onnx
