// The TBE-like operator DSL (since SDK 0.4): an operator's compute written once, as a small DAG
// of stages, from which the golden kernel, the NPU kernel, shape/dtype inference, the schedule
// and the cost facts all follow (docs/custom_ops.md walks through it).
//
//   using namespace asc::tbe;
//   TensorExpr x = placeholder("x", {1, 64, 56, 56}, DType::Float16);
//   TensorExpr w = placeholder("weight", {64, 64, 3, 3}, DType::Float16);
//   TensorExpr y = conv2d(x, w, {.strides = {1, 1}, .pads = {1, 1, 1, 1}});  // Cube, fp32 accumulation
//   y = vrelu(vadd(vmul(y, broadcast(scale, y.shape(), 1)), broadcast(offset, y.shape(), 1)));
//
// Every builder checks its operands when it is called: a stage that cannot take them throws
// EE2004 naming the stage and both operands with their shapes and dtypes. Stages are immutable
// and shared, so a sub-expression used twice is one node of the DAG.
//
// Cube stages (conv2d, matmul) take fp16 or fp32 operands and yield Float32: the products
// accumulate in fp32 (L0C). Vector stages take fp16/fp32 operands of one dtype (a `cast`
// converts) and broadcast numpy-style; their result has the operands' dtype.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "asc/sdk/dtype.hpp"
#include "asc/sdk/tensor.hpp"

namespace asc::tbe {

enum class StageKind : std::uint8_t {
  Placeholder,
  // Cube
  Conv2d,
  Matmul,
  // Vector: with a scalar
  Muls,
  Adds,
  // Vector: binary, broadcasting
  Mul,
  Add,
  Sub,
  Div,
  Max,
  Min,
  // Vector: unary
  Relu,
  Exp,
  Log,
  Abs,
  Rec,
  Sqrt,
  Cast,
  Broadcast,
  // Vector: reductions
  ReduceSum,
  ReduceMax,
};

// "conv2d", "vmuls", "reduce_sum", ... (the builder's name).
std::string_view stage_kind_name(StageKind kind);
bool is_cube(StageKind kind);
bool is_reduction(StageKind kind);
bool is_elementwise(StageKind kind);  // a Vector stage that maps elements one to one (broadcasting)

struct Conv2dParams {
  std::array<std::int64_t, 2> strides{1, 1};
  std::array<std::int64_t, 4> pads{0, 0, 0, 0};  // top, left, bottom, right (ONNX's order)
  std::array<std::int64_t, 2> dilations{1, 1};
  std::int64_t groups = 1;
};

struct MatmulParams {
  bool transpose_a = false;
  bool transpose_b = false;
};

struct Stage;
using StagePtr = std::shared_ptr<const Stage>;

struct Stage {
  StageKind kind = StageKind::Placeholder;
  std::string name;  // the placeholder's name, "<kind>(<placeholders>)", or "<kind>_<stages below + 1>"
  Shape shape;
  DType dtype = DType::Undefined;
  std::vector<StagePtr> operands;
  double scalar = 0;               // vmuls / vadds
  Conv2dParams conv;               // conv2d
  MatmulParams matmul;             // matmul
  std::vector<std::int64_t> axes;  // reductions (sorted, non-negative)
  bool keepdims = false;           // reductions
  std::int64_t broadcast_axis = -1;  // broadcast: where operand dim 0 lands (-1: numpy alignment)
};

// A handle on one stage of an expression.
class TensorExpr {
 public:
  TensorExpr() = default;
  explicit TensorExpr(StagePtr stage) : stage_(std::move(stage)) {}
  const Shape& shape() const { return stage_->shape; }
  DType dtype() const { return stage_->dtype; }
  const std::string& name() const { return stage_->name; }
  const StagePtr& stage() const noexcept { return stage_; }
  bool defined() const noexcept { return stage_ != nullptr; }
  // The same stage under another name (for messages and TE_LOG_LEVEL=debug).
  TensorExpr named(std::string name) const;
  // "'vmul_3' [1,64,56,56] float32"
  std::string describe() const;

 private:
  StagePtr stage_;
};

// An input of the operator. Dimensions must be positive; dtype fp16, fp32 or int8 (Cube only).
TensorExpr placeholder(std::string name, Shape shape, DType dtype);

// Cube. x [N, C, H, W], w [M, C/groups, kH, kW] -> [N, M, Ho, Wo] Float32.
TensorExpr conv2d(const TensorExpr& x, const TensorExpr& w, const Conv2dParams& params = {});
// Cube. a [M, K] (or [K, M] transposed), b [K, N] (or [N, K]) -> [M, N] Float32.
TensorExpr matmul(const TensorExpr& a, const TensorExpr& b, const MatmulParams& params = {});

// Vector.
TensorExpr vmuls(const TensorExpr& x, double scalar);
TensorExpr vadds(const TensorExpr& x, double scalar);
TensorExpr vmul(const TensorExpr& a, const TensorExpr& b);
TensorExpr vadd(const TensorExpr& a, const TensorExpr& b);
TensorExpr vsub(const TensorExpr& a, const TensorExpr& b);
TensorExpr vdiv(const TensorExpr& a, const TensorExpr& b);
TensorExpr vmax(const TensorExpr& a, const TensorExpr& b);
TensorExpr vmin(const TensorExpr& a, const TensorExpr& b);
TensorExpr vrelu(const TensorExpr& x);
TensorExpr vexp(const TensorExpr& x);
TensorExpr vlog(const TensorExpr& x);
TensorExpr vabs(const TensorExpr& x);
TensorExpr vrec(const TensorExpr& x);   // 1 / x
TensorExpr vsqrt(const TensorExpr& x);
TensorExpr cast(const TensorExpr& x, DType dtype);  // fp16 <-> fp32
// x to `shape`. axis -1: numpy's rule (trailing dimensions aligned); axis a: x's dimension i
// lands on shape[a + i] (a per-channel [C] over [N, C, H, W] is axis 1). Each of x's
// dimensions must equal the target's or be 1.
TensorExpr broadcast(const TensorExpr& x, const Shape& shape, std::int64_t axis = -1);
// Reductions over `axes` (negative counts from the end; each at most once).
TensorExpr reduce_sum(const TensorExpr& x, std::vector<std::int64_t> axes, bool keepdims = false);
TensorExpr reduce_max(const TensorExpr& x, std::vector<std::int64_t> axes, bool keepdims = false);

// The expression's stages, operands before their users, each once.
std::vector<StagePtr> topological_order(const TensorExpr& output);
// Its placeholders in the order they first appear.
std::vector<StagePtr> placeholders(const TensorExpr& output);

}  // namespace asc::tbe
