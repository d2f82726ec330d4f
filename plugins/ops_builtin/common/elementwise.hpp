// Templates shared by the elementwise operators (plugins/ops_builtin/elementwise/): dtype sets
// and dispatch, unary maps, numpy-broadcasting binary/ternary loops with fast paths for
// same-shape and scalar operands, and the inference/cost helpers every elementwise op uses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <asc/sdk/error.hpp>
#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/parallel.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "common/uninitialized_tensor.hpp"

namespace asc::ops {

// ---- element types --------------------------------------------------------------------------

template <class T> inline constexpr bool is_half_float_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;
template <class T> inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_half_float_v<T>;
// float16/bfloat16 are computed in float and rounded back once per element.
template <class T> using compute_t = std::conditional_t<is_half_float_v<T>, float, T>;

// Which element types an operator accepts.
enum class TypeSet {
  Floating,       // float16, bfloat16, float, double
  Signed,         // Floating plus signed integers
  Numeric,        // every type but bool
  UnsignedInt,    // uint8 .. uint64
  Bool,
  Any,
};

template <TypeSet S, class T> constexpr bool in_type_set() {
  if constexpr (S == TypeSet::Floating) return is_floating_v<T>;
  else if constexpr (S == TypeSet::Signed) return is_floating_v<T> || (std::is_signed_v<T> && std::is_integral_v<T>);
  else if constexpr (S == TypeSet::Numeric) return !std::is_same_v<T, bool>;
  else if constexpr (S == TypeSet::UnsignedInt) return std::is_unsigned_v<T> && !std::is_same_v<T, bool>;
  else if constexpr (S == TypeSet::Bool) return std::is_same_v<T, bool>;
  else return true;
}

// Throws EE2002 naming the node and the dtype.
[[noreturn]] void throw_dtype_unsupported(const Node& node, DType dtype);

// Calls fn(TypeTag<T>{}) when dtype is in S, else throws EE2002. Types outside S are never
// instantiated, so fn only has to compile for the types the operator accepts.
template <TypeSet S, class Fn> void dispatch(DType dtype, const Node& node, Fn&& fn) {
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (in_type_set<S, T>()) fn(tag);
    else throw_dtype_unsupported(node, dtype);
  });
}

template <TypeSet S> void require_type_set(DType dtype, const Node& node) {
  dispatch<S>(dtype, node, [](auto) {});
}

// ---- layouts ------------------------------------------------------------------------------

// The elementwise operators take channels-last inputs as they are (registered with
// kChannelsLastAllInputs): a tensor laid out contiguous or channels-last is one run of numel()
// elements in memory, and a same-layout output is computed element by element along it.
inline bool is_dense_layout(const Tensor& tensor) {
  return tensor.is_contiguous() || (tensor.rank() >= 3 && tensor.is_channels_last());
}
// The tensor itself when its elements are one run, else a contiguous copy.
inline Tensor dense_layout(const Tensor& tensor) { return is_dense_layout(tensor) ? tensor : tensor.contiguous(); }
// A new tensor of `dtype` laid out as `like` (a dense_layout() tensor), elements unspecified.
inline Tensor uninitialized_like(const Tensor& like, DType dtype) {
  return uninitialized_tensor(dtype, like.shape(), like.is_contiguous() ? Shape{} : like.strides());
}

// ---- threads ------------------------------------------------------------------------------

// The loops below share their elements between the kernel's threads from this many on (below, a
// second thread's wake-up costs about what it saves), in work items of kElementChunk elements.
// Each element is computed as on one thread, so the results do not depend on the thread count.
inline constexpr std::int64_t kParallelElements = std::int64_t{1} << 16;
inline constexpr std::int64_t kElementChunk = std::int64_t{1} << 14;

// body(begin, end) over [0, count): once on the calling thread when small, else in chunks.
template <class Body> void for_each_chunk(int threads, std::int64_t count, Body&& body) {
  if (threads <= 1 || count < kParallelElements) {
    body(std::int64_t{0}, count);
    return;
  }
  parallel_for(threads, (count + kElementChunk - 1) / kElementChunk, [&](std::int64_t chunk) {
    const std::int64_t begin = chunk * kElementChunk;
    body(begin, std::min(count, begin + kElementChunk));
  });
}

// ---- unary maps ---------------------------------------------------------------------------

// output[i] = fn(input[i]) with fn taking compute_t<In>, along memory: output has input's element
// count and layout, both dense_layout().
template <class In, class Out, class Fn>
void map_elements(const Tensor& input, Tensor& output, Fn&& fn, int threads = 1) {
  const In* x = input.data<In>();
  Out* y = output.data<Out>();
  for_each_chunk(threads, input.numel(), [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) y[i] = static_cast<Out>(fn(static_cast<compute_t<In>>(x[i])));
  });
}

// Kernel body of a unary operator on input 0 whose output has the input's dtype and shape.
template <TypeSet S, class Fn> void unary_kernel(KernelContext& context, Fn&& fn) {
  const Tensor input = dense_layout(context.input(0));
  dispatch<S>(input.dtype(), context.node, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor output = uninitialized_like(input, input.dtype());
    map_elements<T, T>(input, output, fn, context.threads);
    context.outputs[0] = std::move(output);
  });
}

// Kernel body of a unary predicate (IsNaN, IsInf): bool output of the input's shape.
template <TypeSet S, class Fn> void unary_predicate_kernel(KernelContext& context, Fn&& fn) {
  const Tensor input = dense_layout(context.input(0));
  dispatch<S>(input.dtype(), context.node, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor output = uninitialized_like(input, DType::Bool);
    map_elements<T, bool>(input, output, fn, context.threads);
    context.outputs[0] = std::move(output);
  });
}

// ---- broadcasting loops -------------------------------------------------------------------

// Iteration plan for an output of `shape` whose operands are broadcast to it: dimensions that
// are contiguous in every operand are merged, so same-shape and scalar operands reduce to a
// single run of `inner` elements. Operand strides are in elements; the output is contiguous.
struct BroadcastPlan {
  Shape outer;                           // merged dimensions except the innermost
  std::int64_t inner = 1;                // length of each innermost run
  std::vector<Shape> outer_strides;      // per operand, then the output as the last entry
  std::vector<std::int64_t> inner_step;  // per operand: 0 (broadcast) or 1
  std::int64_t total = 0;                // output elements
};

BroadcastPlan plan_broadcast(const Shape& output_shape, const std::vector<const Shape*>& operand_shapes);

// Calls run(offsets) once per innermost run; offsets[k] is operand k's first element of the run
// and offsets.back() the output's.
template <class Fn> void for_each_run(const BroadcastPlan& plan, Fn&& run) {
  if (plan.total == 0) return;
  for_each_index(plan.outer, plan.outer_strides, run);
}

// z[i] = fn(x[i * step_x], y[i * step_y]) for i < n, each step 1 or 0 (a broadcast scalar). One
// out-of-line function per operator and dtype: inlined into each of broadcast_binary's call sites,
// its four loops were compiled (and vectorised) several times over for every operator and dtype.
template <class A, class B, class Out, class Fn>
[[gnu::noinline]] void binary_run(const Fn& fn, const A* x, std::int64_t step_x, const B* y, std::int64_t step_y, Out* z,
                                  std::int64_t n) {
  auto value_a = [](const A* p) { return static_cast<compute_t<A>>(*p); };
  auto value_b = [](const B* p) { return static_cast<compute_t<B>>(*p); };
  if (step_x == 1 && step_y == 1) {
    for (std::int64_t i = 0; i < n; ++i) z[i] = static_cast<Out>(fn(value_a(x + i), value_b(y + i)));
  } else if (step_x == 1) {
    const auto yv = value_b(y);
    for (std::int64_t i = 0; i < n; ++i) z[i] = static_cast<Out>(fn(value_a(x + i), yv));
  } else if (step_y == 1) {
    const auto xv = value_a(x);
    for (std::int64_t i = 0; i < n; ++i) z[i] = static_cast<Out>(fn(xv, value_b(y + i)));
  } else {
    const Out zv = static_cast<Out>(fn(value_a(x), value_b(y)));
    for (std::int64_t i = 0; i < n; ++i) z[i] = zv;
  }
}

// out = fn(a, b) elementwise with numpy broadcasting; `out` is preallocated at the broadcast
// shape. fn takes compute_t<A>, compute_t<B>. One run (same shapes, a scalar) is split between
// `threads` in chunks, and so are the runs of a single outer dimension (a row vector over a
// matrix's rows); deeper broadcasts run on the calling thread.
template <class A, class B, class Out, class Fn>
void broadcast_binary(const Tensor& a, const Tensor& b, Tensor& out, Fn&& fn, int threads = 1) {
  const BroadcastPlan plan = plan_broadcast(out.shape(), {&a.shape(), &b.shape()});
  const A* a_data = a.data<A>();
  const B* b_data = b.data<B>();
  Out* out_data = out.data<Out>();
  const std::int64_t step_a = plan.inner_step[0];
  const std::int64_t step_b = plan.inner_step[1];
  auto run = [&](const A* x, const B* y, Out* z, std::int64_t n) { binary_run(fn, x, step_a, y, step_b, z, n); };
  if (plan.total == 0) return;
  if (plan.outer.empty()) {
    for_each_chunk(threads, plan.inner, [&](std::int64_t begin, std::int64_t end) {
      run(a_data + begin * step_a, b_data + begin * step_b, out_data + begin, end - begin);
    });
    return;
  }
  if (plan.outer.size() == 1 && threads > 1 && plan.total >= kParallelElements) {
    const std::int64_t runs = plan.outer[0];
    const std::int64_t runs_per_item = std::max<std::int64_t>(1, kElementChunk / std::max<std::int64_t>(plan.inner, 1));
    parallel_for(threads, (runs + runs_per_item - 1) / runs_per_item, [&](std::int64_t item) {
      for (std::int64_t r = item * runs_per_item, last = std::min(runs, r + runs_per_item); r < last; ++r)
        run(a_data + r * plan.outer_strides[0][0], b_data + r * plan.outer_strides[1][0],
            out_data + r * plan.outer_strides[2][0], plan.inner);
    });
    return;
  }
  for_each_run(plan, [&](const std::vector<std::int64_t>& offsets) {
    run(a_data + offsets[0], b_data + offsets[1], out_data + offsets[2], plan.inner);
  });
}

// The broadcast shape of the present inputs of a kernel context (throws EE2003 when
// incompatible).
Shape broadcast_input_shapes(const KernelContext& context);

// Kernel body of a binary operator whose inputs share a dtype in S; the output has that dtype
// (or bool when OutBool). Two channels-last inputs of one shape give a channels-last output;
// any other pair is computed contiguous.
template <TypeSet S, bool OutBool = false, class Fn> void binary_kernel(KernelContext& context, Fn&& fn) {
  const Tensor& a_in = context.input(0);
  const Tensor& b_in = context.input(1);
  const bool same_layout = a_in.shape() == b_in.shape() && is_dense_layout(a_in) && a_in.strides() == b_in.strides();
  const Tensor a = same_layout ? a_in : a_in.contiguous();
  const Tensor b = same_layout ? b_in : b_in.contiguous();
  if (a.dtype() != b.dtype())
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": inputs have different dtypes " +
                                                std::string(dtype_name(a.dtype())) + " and " +
                                                std::string(dtype_name(b.dtype())));
  const Shape shape = broadcast_shapes(a.shape(), b.shape(), context.node);
  dispatch<S>(a.dtype(), context.node, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Out = std::conditional_t<OutBool, bool, T>;
    if (same_layout && !a.is_contiguous()) {  // one run along memory, as for contiguous operands
      Tensor output = uninitialized_like(a, dtype_of<Out>());
      const T* x = a.data<T>();
      const T* y = b.data<T>();
      Out* z = output.data<Out>();
      for_each_chunk(context.threads, a.numel(), [&](std::int64_t begin, std::int64_t end) {
        binary_run(fn, x + begin, 1, y + begin, 1, z + begin, end - begin);
      });
      context.outputs[0] = std::move(output);
      return;
    }
    Tensor output = uninitialized_tensor(dtype_of<Out>(), shape);
    broadcast_binary<T, T, Out>(a, b, output, fn, context.threads);
    context.outputs[0] = std::move(output);
  });
}

// ---- integer arithmetic without undefined behaviour ------------------------------------------

// Signed overflow wraps (two's complement) instead of being undefined.
template <class T, class Op> constexpr T wrapping(T a, T b, Op op) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(op(static_cast<U>(a), static_cast<U>(b)));
  } else {
    return static_cast<T>(op(a, b));
  }
}

// ---- inference ----------------------------------------------------------------------------

// Output 0 has input 0's dtype and shape.
void infer_like_input(InferenceContext& context);
// Output 0 is bool with input 0's shape.
void infer_bool_like_input(InferenceContext& context);
// The broadcast dims of the present inputs in [first, last) (last clamped to the input count);
// std::nullopt when any rank is unknown. Throws EE2003 for statically incompatible shapes.
std::optional<std::vector<Dim>> broadcast_input_dims(const InferenceContext& context, std::size_t first = 0,
                                                     std::size_t last = SIZE_MAX);
// Throws EE2003 unless the known dtypes of the present inputs in [first, last) agree.
void require_same_input_dtypes(const InferenceContext& context, std::size_t first = 0, std::size_t last = SIZE_MAX);
// Output 0: broadcast shape of all inputs, dtype of input 0 (inputs must share it).
void infer_broadcast(InferenceContext& context);
// Output 0: broadcast shape of all inputs, bool (inputs must share a dtype).
void infer_broadcast_bool(InferenceContext& context);

// ---- cost ---------------------------------------------------------------------------------

// FLOPs per output element on the vector unit. Division and square root run iteratively
// (Newton steps) on the vector unit; transcendental functions are polynomial/range-reduction
// sequences of roughly eight multiply-adds.
namespace element_flops {
inline constexpr double kSimple = 1;
inline constexpr double kDivide = 4;
inline constexpr double kTranscendental = 8;
}  // namespace element_flops

// A CostFunction charging `flops_per_element` per output element on the vector unit.
CostFunction per_element_cost(double flops_per_element);

}  // namespace asc::ops
