#include "asc/sdk/tbe/expr.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_set>

#include "asc/sdk/error.hpp"

namespace asc::tbe {
namespace {

std::string dims(const Shape& shape) { return shape_to_string(shape); }

[[noreturn]] void fail(StageKind kind, const std::string& detail) {
  throw Error(ErrorCode::TbeExpressionInvalid, "stage '" + std::string(stage_kind_name(kind)) + "': " + detail);
}

std::string both(const TensorExpr& a, const TensorExpr& b) { return "operands " + a.describe() + " and " + b.describe(); }

void check_defined(StageKind kind, const TensorExpr& x) {
  if (!x.defined()) fail(kind, "an operand is an empty TensorExpr (not built by a DSL call)");
}

bool is_float(DType dtype) { return dtype == DType::Float16 || dtype == DType::Float32; }

void check_vector_dtype(StageKind kind, const TensorExpr& x) {
  if (!is_float(x.dtype()))
    fail(kind, "operand " + x.describe() + " has dtype " + std::string(dtype_name(x.dtype())) +
                   "; Vector stages take float16 or float32 (cast first)");
}

// Stages in the sub-DAG below and including one with these operands: the default name's number,
// the same every time the same expression is built.
std::size_t dag_size(const std::vector<StagePtr>& operands) {
  std::unordered_set<const Stage*> seen;
  std::function<void(const Stage*)> visit = [&](const Stage* stage) {
    if (!seen.insert(stage).second) return;
    for (const StagePtr& operand : stage->operands) visit(operand.get());
  };
  for (const StagePtr& operand : operands) visit(operand.get());
  return seen.size() + 1;
}

// The default name: "<kind>(<operands>)" over placeholders only ("broadcast(scale)"), else
// "<kind>_<stages it depends on, itself included>" ("vmul_6"); the same every time the same
// expression is built.
std::string default_name(const Stage& stage) {
  const std::string kind(stage_kind_name(stage.kind));
  const bool leaves = std::all_of(stage.operands.begin(), stage.operands.end(),
                                  [](const StagePtr& operand) { return operand->kind == StageKind::Placeholder; });
  if (!leaves) return kind + "_" + std::to_string(dag_size(stage.operands));
  std::string names;
  for (const StagePtr& operand : stage.operands) names += (names.empty() ? "" : ",") + operand->name;
  return kind + "(" + names + ")";
}

TensorExpr make(Stage stage) {
  if (stage.name.empty()) stage.name = default_name(stage);
  return TensorExpr(std::make_shared<const Stage>(std::move(stage)));
}

// numpy broadcasting of two shapes, or nullopt.
std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = std::max(da, db);
  }
  return out;
}

TensorExpr binary(StageKind kind, const TensorExpr& a, const TensorExpr& b) {
  check_defined(kind, a);
  check_defined(kind, b);
  check_vector_dtype(kind, a);
  check_vector_dtype(kind, b);
  if (a.dtype() != b.dtype()) fail(kind, both(a, b) + " differ in dtype (cast one of them)");
  const auto shape = broadcast_shapes(a.shape(), b.shape());
  if (!shape) fail(kind, both(a, b) + " do not broadcast (use broadcast() with an axis)");
  Stage stage;
  stage.kind = kind;
  stage.shape = *shape;
  stage.dtype = a.dtype();
  stage.operands = {a.stage(), b.stage()};
  return make(std::move(stage));
}

TensorExpr unary(StageKind kind, const TensorExpr& x, double scalar = 0) {
  check_defined(kind, x);
  check_vector_dtype(kind, x);
  Stage stage;
  stage.kind = kind;
  stage.shape = x.shape();
  stage.dtype = x.dtype();
  stage.operands = {x.stage()};
  stage.scalar = scalar;
  return make(std::move(stage));
}

TensorExpr reduction(StageKind kind, const TensorExpr& x, std::vector<std::int64_t> axes, bool keepdims) {
  check_defined(kind, x);
  check_vector_dtype(kind, x);
  const auto rank = static_cast<std::int64_t>(x.shape().size());
  if (axes.empty()) fail(kind, "operand " + x.describe() + ": no axes to reduce");
  std::set<std::int64_t> normalized;
  for (const std::int64_t axis : axes) {
    const std::int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
      fail(kind, "axis " + std::to_string(axis) + " is out of range for operand " + x.describe());
    if (!normalized.insert(a).second) fail(kind, "axis " + std::to_string(axis) + " is listed twice");
  }
  Stage stage;
  stage.kind = kind;
  stage.dtype = x.dtype();
  stage.operands = {x.stage()};
  stage.axes.assign(normalized.begin(), normalized.end());
  stage.keepdims = keepdims;
  for (std::int64_t i = 0; i < rank; ++i) {
    if (normalized.count(i) == 0)
      stage.shape.push_back(x.shape()[static_cast<std::size_t>(i)]);
    else if (keepdims)
      stage.shape.push_back(1);
  }
  return make(std::move(stage));
}

void check_cube_operands(StageKind kind, const TensorExpr& a, const TensorExpr& b, std::size_t rank_a,
                         std::size_t rank_b) {
  check_defined(kind, a);
  check_defined(kind, b);
  for (const TensorExpr* operand : {&a, &b})
    if (!is_float(operand->dtype()) && operand->dtype() != DType::Int8)
      fail(kind, "operand " + operand->describe() + ": Cube stages take float16, float32 or int8");
  if (a.dtype() != b.dtype()) fail(kind, both(a, b) + " differ in dtype (cast one of them)");
  if (a.shape().size() != rank_a || b.shape().size() != rank_b)
    fail(kind, both(a, b) + ": expected ranks " + std::to_string(rank_a) + " and " + std::to_string(rank_b));
}

}  // namespace

std::string_view stage_kind_name(StageKind kind) {
  switch (kind) {
    case StageKind::Placeholder: return "placeholder";
    case StageKind::Conv2d: return "conv2d";
    case StageKind::Matmul: return "matmul";
    case StageKind::Muls: return "vmuls";
    case StageKind::Adds: return "vadds";
    case StageKind::Mul: return "vmul";
    case StageKind::Add: return "vadd";
    case StageKind::Sub: return "vsub";
    case StageKind::Div: return "vdiv";
    case StageKind::Max: return "vmax";
    case StageKind::Min: return "vmin";
    case StageKind::Relu: return "vrelu";
    case StageKind::Exp: return "vexp";
    case StageKind::Log: return "vlog";
    case StageKind::Abs: return "vabs";
    case StageKind::Rec: return "vrec";
    case StageKind::Sqrt: return "vsqrt";
    case StageKind::Cast: return "cast";
    case StageKind::Broadcast: return "broadcast";
    case StageKind::ReduceSum: return "reduce_sum";
    case StageKind::ReduceMax: return "reduce_max";
  }
  return "?";
}

bool is_cube(StageKind kind) { return kind == StageKind::Conv2d || kind == StageKind::Matmul; }
bool is_reduction(StageKind kind) { return kind == StageKind::ReduceSum || kind == StageKind::ReduceMax; }
bool is_elementwise(StageKind kind) {
  return kind != StageKind::Placeholder && !is_cube(kind) && !is_reduction(kind);
}

TensorExpr TensorExpr::named(std::string name) const {
  Stage copy = *stage_;
  copy.name = std::move(name);
  return TensorExpr(std::make_shared<const Stage>(std::move(copy)));
}

std::string TensorExpr::describe() const {
  if (!stage_) return "<empty>";
  return "'" + stage_->name + "' " + dims(stage_->shape) + " " + std::string(dtype_name(stage_->dtype));
}

TensorExpr placeholder(std::string name, Shape shape, DType dtype) {
  if (name.empty()) fail(StageKind::Placeholder, "a placeholder needs a name");
  for (const std::int64_t dim : shape)
    if (dim < 1)
      fail(StageKind::Placeholder, "'" + name + "' has shape " + dims(shape) + ": every dimension must be positive");
  if (!is_float(dtype) && dtype != DType::Int8)
    fail(StageKind::Placeholder,
         "'" + name + "' has dtype " + std::string(dtype_name(dtype)) + "; the DSL takes float16, float32 or int8");
  Stage stage;
  stage.kind = StageKind::Placeholder;
  stage.name = std::move(name);
  stage.shape = std::move(shape);
  stage.dtype = dtype;
  return make(std::move(stage));
}

TensorExpr conv2d(const TensorExpr& x, const TensorExpr& w, const Conv2dParams& p) {
  constexpr StageKind kind = StageKind::Conv2d;
  check_cube_operands(kind, x, w, 4, 4);
  for (std::size_t i = 0; i < 2; ++i)
    if (p.strides[i] < 1 || p.dilations[i] < 1) fail(kind, "strides and dilations must be at least 1");
  for (const std::int64_t pad : p.pads)
    if (pad < 0) fail(kind, "pads must not be negative");
  const Shape& xs = x.shape();
  const Shape& ws = w.shape();
  if (p.groups < 1 || xs[1] % p.groups != 0 || ws[0] % p.groups != 0)
    fail(kind, both(x, w) + ": groups " + std::to_string(p.groups) + " must divide the input and output channels");
  if (xs[1] / p.groups != ws[1])
    fail(kind, both(x, w) + ": input channels " + std::to_string(xs[1]) + " / groups " + std::to_string(p.groups) +
                   " != the weight's " + std::to_string(ws[1]));
  Shape out{xs[0], ws[0], 0, 0};
  for (std::size_t i = 0; i < 2; ++i) {
    const std::int64_t extent = xs[2 + i] + p.pads[i] + p.pads[2 + i] - p.dilations[i] * (ws[2 + i] - 1) - 1;
    if (extent < 0) fail(kind, both(x, w) + ": the kernel is larger than the padded input");
    out[2 + i] = extent / p.strides[i] + 1;
  }
  Stage stage;
  stage.kind = kind;
  stage.shape = out;
  stage.dtype = x.dtype() == DType::Int8 ? DType::Int32 : DType::Float32;
  stage.operands = {x.stage(), w.stage()};
  stage.conv = p;
  return make(std::move(stage));
}

TensorExpr matmul(const TensorExpr& a, const TensorExpr& b, const MatmulParams& p) {
  constexpr StageKind kind = StageKind::Matmul;
  check_cube_operands(kind, a, b, 2, 2);
  const std::int64_t m = p.transpose_a ? a.shape()[1] : a.shape()[0];
  const std::int64_t ka = p.transpose_a ? a.shape()[0] : a.shape()[1];
  const std::int64_t kb = p.transpose_b ? b.shape()[1] : b.shape()[0];
  const std::int64_t n = p.transpose_b ? b.shape()[0] : b.shape()[1];
  if (ka != kb)
    fail(kind, both(a, b) + ": inner dimensions " + std::to_string(ka) + " and " + std::to_string(kb) + " differ" +
                   (p.transpose_a || p.transpose_b ? " (after the transposes)" : ""));
  Stage stage;
  stage.kind = kind;
  stage.shape = {m, n};
  stage.dtype = a.dtype() == DType::Int8 ? DType::Int32 : DType::Float32;
  stage.operands = {a.stage(), b.stage()};
  stage.matmul = p;
  return make(std::move(stage));
}

TensorExpr vmuls(const TensorExpr& x, double scalar) { return unary(StageKind::Muls, x, scalar); }
TensorExpr vadds(const TensorExpr& x, double scalar) { return unary(StageKind::Adds, x, scalar); }
TensorExpr vmul(const TensorExpr& a, const TensorExpr& b) { return binary(StageKind::Mul, a, b); }
TensorExpr vadd(const TensorExpr& a, const TensorExpr& b) { return binary(StageKind::Add, a, b); }
TensorExpr vsub(const TensorExpr& a, const TensorExpr& b) { return binary(StageKind::Sub, a, b); }
TensorExpr vdiv(const TensorExpr& a, const TensorExpr& b) { return binary(StageKind::Div, a, b); }
TensorExpr vmax(const TensorExpr& a, const TensorExpr& b) { return binary(StageKind::Max, a, b); }
TensorExpr vmin(const TensorExpr& a, const TensorExpr& b) { return binary(StageKind::Min, a, b); }
TensorExpr vrelu(const TensorExpr& x) { return unary(StageKind::Relu, x); }
TensorExpr vexp(const TensorExpr& x) { return unary(StageKind::Exp, x); }
TensorExpr vlog(const TensorExpr& x) { return unary(StageKind::Log, x); }
TensorExpr vabs(const TensorExpr& x) { return unary(StageKind::Abs, x); }
TensorExpr vrec(const TensorExpr& x) { return unary(StageKind::Rec, x); }
TensorExpr vsqrt(const TensorExpr& x) { return unary(StageKind::Sqrt, x); }

TensorExpr cast(const TensorExpr& x, DType dtype) {
  constexpr StageKind kind = StageKind::Cast;
  check_defined(kind, x);
  if (!is_float(dtype) || (!is_float(x.dtype()) && x.dtype() != DType::Int32))
    fail(kind, "operand " + x.describe() + " to " + std::string(dtype_name(dtype)) +
                   ": cast converts float16, float32 (and a Cube's int32) to float16 or float32");
  Stage stage;
  stage.kind = kind;
  stage.shape = x.shape();
  stage.dtype = dtype;
  stage.operands = {x.stage()};
  return make(std::move(stage));
}

TensorExpr broadcast(const TensorExpr& x, const Shape& shape, std::int64_t axis) {
  constexpr StageKind kind = StageKind::Broadcast;
  check_defined(kind, x);
  check_vector_dtype(kind, x);
  const Shape& from = x.shape();
  const auto rank = static_cast<std::int64_t>(shape.size());
  const auto from_rank = static_cast<std::int64_t>(from.size());
  const std::int64_t start = axis < 0 ? rank - from_rank : axis;
  const std::string what = "operand " + x.describe() + " to " + dims(shape) +
                           (axis < 0 ? std::string() : " at axis " + std::to_string(axis));
  if (start < 0 || start + from_rank > rank) fail(kind, what + ": the operand does not fit in the target's rank");
  for (std::int64_t i = 0; i < from_rank; ++i) {
    const std::int64_t d = from[static_cast<std::size_t>(i)];
    if (d != 1 && d != shape[static_cast<std::size_t>(start + i)])
      fail(kind, what + ": dimension " + std::to_string(i) + " (" + std::to_string(d) + ") is neither 1 nor " +
                     std::to_string(shape[static_cast<std::size_t>(start + i)]));
  }
  Stage stage;
  stage.kind = kind;
  stage.shape = shape;
  stage.dtype = x.dtype();
  stage.operands = {x.stage()};
  stage.broadcast_axis = start;
  return make(std::move(stage));
}

TensorExpr reduce_sum(const TensorExpr& x, std::vector<std::int64_t> axes, bool keepdims) {
  return reduction(StageKind::ReduceSum, x, std::move(axes), keepdims);
}
TensorExpr reduce_max(const TensorExpr& x, std::vector<std::int64_t> axes, bool keepdims) {
  return reduction(StageKind::ReduceMax, x, std::move(axes), keepdims);
}

std::vector<StagePtr> topological_order(const TensorExpr& output) {
  std::vector<StagePtr> order;
  std::unordered_set<const Stage*> seen;
  std::function<void(const StagePtr&)> visit = [&](const StagePtr& stage) {
    if (!seen.insert(stage.get()).second) return;
    for (const StagePtr& operand : stage->operands) visit(operand);
    order.push_back(stage);
  };
  if (output.defined()) visit(output.stage());
  return order;
}

std::vector<StagePtr> placeholders(const TensorExpr& output) {
  std::vector<StagePtr> result;
  for (const StagePtr& stage : topological_order(output))
    if (stage->kind == StageKind::Placeholder) result.push_back(stage);
  return result;
}

}  // namespace asc::tbe
