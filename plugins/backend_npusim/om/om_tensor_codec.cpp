#include "om/om_tensor_codec.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "om/om_enums.hpp"

namespace asc::npusim {
namespace {

// Tensor bytes are copied as they are in memory; the format says little-endian.
static_assert(std::endian::native == std::endian::little, ".om tensor data is little-endian");

// The element count, refusing shapes whose strides would overflow (zero dims included: the
// strides of [0, 2^40, 2^40] overflow although it has no element).
std::int64_t checked_element_count(const Shape& shape, const std::string& origin, const std::string& where) {
  std::int64_t span = 1;
  bool empty = false;
  for (const std::int64_t dim : shape) {
    if (dim < 0) om_format_error(origin, where, "negative dimension in shape " + shape_to_string(shape));
    if (dim > 1 && span > std::numeric_limits<std::int64_t>::max() / dim)
      om_format_error(origin, where, "shape " + shape_to_string(shape) + " has more elements than fit in memory");
    span *= std::max<std::int64_t>(dim, 1);
    empty = empty || dim == 0;
  }
  return empty ? 0 : span;
}

}  // namespace

om::TensorData encode_tensor(const Tensor& tensor, DType stored) {
  om::TensorData data;
  data.set_defined(tensor.defined());
  if (!tensor.defined()) return data;
  const Tensor contiguous = stored == tensor.dtype() ? tensor.contiguous() : tensor.cast(stored);
  data.set_dtype(to_proto(tensor.dtype()));
  data.set_stored_dtype(to_proto(stored));
  for (const std::int64_t dim : tensor.shape()) data.add_shape(dim);
  data.set_format(to_proto(tensor.format()));
  data.set_data(reinterpret_cast<const char*>(contiguous.view().raw()), contiguous.nbytes());
  return data;
}

Tensor decode_tensor(const om::TensorData& data, const std::string& origin, const std::string& where) {
  if (!data.defined()) {
    if (!data.data().empty() || data.shape_size() != 0) om_format_error(origin, where, "an empty tensor carries data");
    return {};
  }
  const DType dtype = dtype_from_proto(data.dtype(), origin, where);
  const DType stored = dtype_from_proto(data.stored_dtype(), origin, where);
  if (dtype == DType::Undefined || stored == DType::Undefined) om_format_error(origin, where, "tensor without a dtype");
  if (stored != dtype && !(is_floating(stored) && is_floating(dtype)))
    om_format_error(origin, where,
                    "tensor of " + std::string(dtype_name(dtype)) + " stored as " + std::string(dtype_name(stored)) +
                        ": only floating-point tensors are stored at another dtype");
  const Shape shape(data.shape().begin(), data.shape().end());
  const std::int64_t count = checked_element_count(shape, origin, where);
  const auto element_bytes = static_cast<std::int64_t>(dtype_size(stored));
  const bool too_large = count > std::numeric_limits<std::int64_t>::max() / element_bytes;
  if (too_large || count * element_bytes != static_cast<std::int64_t>(data.data().size()))
    om_format_error(origin, where,
                    std::string(dtype_name(stored)) + shape_to_string(shape) + " needs " +
                        (too_large ? std::string("more bytes than fit in memory")
                                   : std::to_string(count * element_bytes) + " bytes") +
                        ", the file holds " + std::to_string(data.data().size()));
  Tensor tensor(stored, shape, format_from_proto(data.format(), origin, where));
  std::memcpy(tensor.view().raw(), data.data().data(), data.data().size());
  // A bool byte other than 0 or 1 is undefined behaviour once read as bool.
  if (stored == DType::Bool)
    for (std::byte& byte : std::span(tensor.view().raw(), tensor.nbytes())) byte = std::byte{byte != std::byte{0}};
  return stored == dtype ? tensor : tensor.cast(dtype);
}

}  // namespace asc::npusim
