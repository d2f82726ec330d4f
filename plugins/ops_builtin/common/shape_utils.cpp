#include "common/shape_utils.hpp"

#include <algorithm>
#include <string>

#include <asc/sdk/error.hpp>

namespace asc::ops {

std::int64_t normalize_axis(std::int64_t axis, std::int64_t rank, const Node& node) {
  const std::int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= std::max<std::int64_t>(rank, 1))
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": axis " + std::to_string(axis) +
                                                " is out of range for rank " + std::to_string(rank));
  return normalized;
}

std::vector<std::int64_t> normalize_axes(const std::vector<std::int64_t>& axes, std::int64_t rank,
                                         const Node& node) {
  std::vector<std::int64_t> result;
  result.reserve(axes.size());
  for (auto axis : axes) result.push_back(normalize_axis(axis, rank, node));
  return result;
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const Node& node) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": shapes " + shape_to_string(a) + " and " +
                                                  shape_to_string(b) + " cannot be broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_shapes(const std::vector<const Shape*>& shapes, const Node& node) {
  Shape out;
  for (const Shape* shape : shapes) out = broadcast_shapes(out, *shape, node);
  return out;
}

std::vector<Dim> broadcast_dims(const std::vector<Dim>& a, const std::vector<Dim>& b, const Node& node) {
  const std::size_t rank = std::max(a.size(), b.size());
  std::vector<Dim> out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const Dim da = i < rank - a.size() ? Dim(1) : a[i - (rank - a.size())];
    const Dim db = i < rank - b.size() ? Dim(1) : b[i - (rank - b.size())];
    if (da.is_static() && db.is_static()) {
      if (da.value != db.value && da.value != 1 && db.value != 1)
        throw Error(ErrorCode::InvalidOperator, node.describe() + ": dimensions " + std::to_string(da.value) +
                                                    " and " + std::to_string(db.value) + " cannot be broadcast");
      out[i] = da.value == 1 ? db : da;
    } else if (da.is_static() && da.value == 1) {
      out[i] = db;
    } else if (db.is_static() && db.value == 1) {
      out[i] = da;
    } else if (da == db) {
      out[i] = da;
    } else if (da.is_static()) {
      out[i] = da;  // the other side must be 1 or equal at run time
    } else if (db.is_static()) {
      out[i] = db;
    }
  }
  return out;
}

Shape broadcast_strides(const Shape& shape, const Shape& target) {
  Shape strides(target.size(), 0);
  const Shape own = contiguous_strides(shape);
  const std::size_t lead = target.size() - shape.size();
  for (std::size_t i = 0; i < shape.size(); ++i) strides[lead + i] = shape[i] == 1 ? 0 : own[i];
  return strides;
}

std::optional<Shape> known_shape(const ValueInfo& info) {
  if (!info.has_static_shape()) return std::nullopt;
  return info.static_shape();
}

std::vector<Dim> to_dims(const Shape& shape) { return {shape.begin(), shape.end()}; }

}  // namespace asc::ops
