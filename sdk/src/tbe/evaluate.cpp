#include "asc/sdk/tbe/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "asc/sdk/error.hpp"
#include "asc/sdk/half.hpp"
#include "asc/sdk/parallel.hpp"

namespace asc::tbe {
namespace {

// Element offsets of `from` (placed at `start` in `to`'s rank, size-1 dims repeated) for every
// element of `to`, in row-major order.
std::vector<std::int64_t> broadcast_offsets(const Shape& from, std::int64_t start, const Shape& to) {
  const std::size_t rank = to.size();
  Shape strides(rank, 0);
  std::int64_t stride = 1;
  for (std::int64_t i = static_cast<std::int64_t>(from.size()) - 1; i >= 0; --i) {
    const auto d = static_cast<std::size_t>(start + i);
    strides[d] = from[static_cast<std::size_t>(i)] == 1 ? 0 : stride;
    stride *= from[static_cast<std::size_t>(i)];
  }
  const std::int64_t count = num_elements(to);
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(count));
  Shape index(rank, 0);
  std::int64_t offset = 0;
  for (std::int64_t e = 0; e < count; ++e) {
    offsets[static_cast<std::size_t>(e)] = offset;
    for (std::size_t d = rank; d-- > 0;) {
      ++index[d];
      offset += strides[d];
      if (index[d] < to[d]) break;
      offset -= strides[d] * index[d];
      index[d] = 0;
    }
  }
  return offsets;
}

template <class T>
class Evaluator {
 public:
  Evaluator(const EvaluateOptions& options) : options_(options) {}

  std::vector<T> run(const TensorExpr& output, const std::map<std::string, const Tensor*>& inputs) {
    for (const StagePtr& stage : topological_order(output)) {
      std::vector<T> value = stage->kind == StageKind::Placeholder ? read(*stage, inputs) : compute(*stage);
      store(*stage, value);
      values_[stage.get()] = std::move(value);
    }
    return std::move(values_.at(output.stage().get()));
  }

 private:
  const std::vector<T>& operand(const Stage& stage, std::size_t i) const { return values_.at(stage.operands[i].get()); }

  std::vector<T> read(const Stage& stage, const std::map<std::string, const Tensor*>& inputs) const {
    const auto found = inputs.find(stage.name);
    if (found == inputs.end() || found->second == nullptr || !found->second->defined())
      throw Error(ErrorCode::InputMismatch, "TBE placeholder '" + stage.name + "' has no input tensor");
    const Tensor& tensor = *found->second;
    if (tensor.shape() != stage.shape)
      throw Error(ErrorCode::InputMismatch, "TBE placeholder '" + stage.name + "' is " + shape_to_string(stage.shape) +
                                                " but its input is " + shape_to_string(tensor.shape()));
    const std::vector<double> doubles = tensor.to_doubles();
    return std::vector<T>(doubles.begin(), doubles.end());
  }

  // Device numerics: the stage's result as the buffer holds it.
  void store(const Stage& stage, std::vector<T>& value) const {
    if constexpr (std::is_same_v<T, float>) {
      if (options_.numerics == Numerics::Device && stored_dtype(stage, options_.device_dtype) == DType::Float16)
        for (T& v : value) v = f16_bits_to_float(float_to_f16_bits(v));
    }
  }

  std::vector<T> compute(const Stage& stage) {
    switch (stage.kind) {
      case StageKind::Conv2d: return conv2d(stage);
      case StageKind::Matmul: return matmul(stage);
      case StageKind::ReduceSum:
      case StageKind::ReduceMax: return reduce(stage);
      case StageKind::Broadcast: {
        const std::vector<T>& x = operand(stage, 0);
        const auto offsets = broadcast_offsets(stage.operands[0]->shape, stage.broadcast_axis, stage.shape);
        std::vector<T> out(offsets.size());
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = x[static_cast<std::size_t>(offsets[i])];
        return out;
      }
      default: break;
    }
    if (stage.operands.size() == 2) return binary(stage);
    const std::vector<T>& x = operand(stage, 0);
    std::vector<T> out(x.size());
    const T s = static_cast<T>(stage.scalar);
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = unary(stage.kind, x[i], s);
    return out;
  }

  static T unary(StageKind kind, T v, T s) {
    switch (kind) {
      case StageKind::Muls: return v * s;
      case StageKind::Adds: return v + s;
      case StageKind::Relu: return v > 0 ? v : T(0);
      case StageKind::Exp: return std::exp(v);
      case StageKind::Log: return std::log(v);
      case StageKind::Abs: return std::abs(v);
      case StageKind::Rec: return T(1) / v;
      case StageKind::Sqrt: return std::sqrt(v);
      case StageKind::Cast: return v;  // the store rounds to the target dtype
      default: break;
    }
    throw Error(ErrorCode::Internal, "TBE stage " + std::string(stage_kind_name(kind)) + " is not unary");
  }

  std::vector<T> binary(const Stage& stage) const {
    const std::vector<T>& a = operand(stage, 0);
    const std::vector<T>& b = operand(stage, 1);
    const Shape& as = stage.operands[0]->shape;
    const Shape& bs = stage.operands[1]->shape;
    const auto rank = static_cast<std::int64_t>(stage.shape.size());
    const auto ao = broadcast_offsets(as, rank - static_cast<std::int64_t>(as.size()), stage.shape);
    const auto bo = broadcast_offsets(bs, rank - static_cast<std::int64_t>(bs.size()), stage.shape);
    std::vector<T> out(ao.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      const T x = a[static_cast<std::size_t>(ao[i])], y = b[static_cast<std::size_t>(bo[i])];
      switch (stage.kind) {
        case StageKind::Mul: out[i] = x * y; break;
        case StageKind::Add: out[i] = x + y; break;
        case StageKind::Sub: out[i] = x - y; break;
        case StageKind::Div: out[i] = x / y; break;
        case StageKind::Max: out[i] = std::max(x, y); break;
        case StageKind::Min: out[i] = std::min(x, y); break;
        default: throw Error(ErrorCode::Internal, "TBE stage " + stage.name + " is not binary");
      }
    }
    return out;
  }

  std::vector<T> reduce(const Stage& stage) const {
    const std::vector<T>& x = operand(stage, 0);
    const Shape& in = stage.operands[0]->shape;
    // Output offset of every input element: the reduced axes get stride 0.
    Shape kept = in;
    for (const std::int64_t axis : stage.axes) kept[static_cast<std::size_t>(axis)] = 1;
    const std::int64_t out_count = num_elements(kept);
    const bool max = stage.kind == StageKind::ReduceMax;
    std::vector<T> out(static_cast<std::size_t>(out_count), max ? -std::numeric_limits<T>::infinity() : T(0));
    const auto offsets = broadcast_offsets(kept, 0, in);
    for (std::size_t i = 0; i < x.size(); ++i) {
      T& slot = out[static_cast<std::size_t>(offsets[i])];
      slot = max ? std::max(slot, x[i]) : slot + x[i];
    }
    return out;
  }

  // Cube operands as the device reads them (fp16 under an fp16 compute dtype), summed in T
  // (float32 on the device: L0C; float64 for the golden).
  std::vector<T> cube_operand(const Stage& stage, std::size_t i) const {
    std::vector<T> v = operand(stage, i);
    if constexpr (std::is_same_v<T, float>) {
      if (options_.numerics == Numerics::Device && options_.device_dtype == DType::Float16)
        for (T& x : v) x = f16_bits_to_float(float_to_f16_bits(x));
    }
    return v;
  }

  std::vector<T> conv2d(const Stage& stage) const {
    const std::vector<T> x = cube_operand(stage, 0), w = cube_operand(stage, 1);
    const Shape& xs = stage.operands[0]->shape;
    const Shape& ws = stage.operands[1]->shape;
    const Shape& ys = stage.shape;
    const Conv2dParams& p = stage.conv;
    const std::int64_t n_count = ys[0], m_count = ys[1], oh = ys[2], ow = ys[3];
    const std::int64_t c = xs[1], ih = xs[2], iw = xs[3], kh = ws[2], kw = ws[3];
    const std::int64_t cg = c / p.groups, mg = m_count / p.groups;
    std::vector<T> y(static_cast<std::size_t>(num_elements(ys)));
    parallel_for(options_.threads, n_count * m_count, [&](std::int64_t plane) {
      const std::int64_t n = plane / m_count, m = plane % m_count, g = m / mg;
      T* out = y.data() + plane * oh * ow;
      for (std::int64_t ci = 0; ci < cg; ++ci) {
        const T* in = x.data() + (n * c + g * cg + ci) * ih * iw;
        const T* filter = w.data() + (m * cg + ci) * kh * kw;
        for (std::int64_t r = 0; r < kh; ++r)
          for (std::int64_t s = 0; s < kw; ++s) {
            const T weight = filter[r * kw + s];
            for (std::int64_t yo = 0; yo < oh; ++yo) {
              const std::int64_t yi = yo * p.strides[0] - p.pads[0] + r * p.dilations[0];
              if (yi < 0 || yi >= ih) continue;
              for (std::int64_t xo = 0; xo < ow; ++xo) {
                const std::int64_t xi = xo * p.strides[1] - p.pads[1] + s * p.dilations[1];
                if (xi >= 0 && xi < iw) out[yo * ow + xo] += weight * in[yi * iw + xi];
              }
            }
          }
      }
    });
    return y;
  }

  std::vector<T> matmul(const Stage& stage) const {
    const std::vector<T> a = cube_operand(stage, 0), b = cube_operand(stage, 1);
    const Shape& as = stage.operands[0]->shape;
    const Shape& bs = stage.operands[1]->shape;
    const MatmulParams& p = stage.matmul;
    const std::int64_t m = stage.shape[0], n = stage.shape[1], k = p.transpose_a ? as[0] : as[1];
    std::vector<T> y(static_cast<std::size_t>(m * n));
    parallel_for(options_.threads, m, [&](std::int64_t i) {
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const T av = p.transpose_a ? a[static_cast<std::size_t>(kk * as[1] + i)] : a[static_cast<std::size_t>(i * k + kk)];
        for (std::int64_t j = 0; j < n; ++j) {
          const T bv = p.transpose_b ? b[static_cast<std::size_t>(j * bs[1] + kk)] : b[static_cast<std::size_t>(kk * n + j)];
          y[static_cast<std::size_t>(i * n + j)] += av * bv;
        }
      }
    });
    return y;
  }

  EvaluateOptions options_;
  std::unordered_map<const Stage*, std::vector<T>> values_;
};

template <class T>
Tensor to_tensor(const std::vector<T>& values, DType dtype, const Shape& shape) {
  Tensor out(DType::Float64, shape);
  std::copy(values.begin(), values.end(), out.data<double>());
  return dtype == DType::Float64 ? out : out.cast(dtype);
}

}  // namespace

DType stored_dtype(const Stage& stage, DType device_dtype) {
  if (stage.dtype != DType::Float32 || device_dtype != DType::Float16) return stage.dtype;
  if (stage.kind == StageKind::Cast) return DType::Float32;  // asked for explicitly
  if (stage.kind == StageKind::Placeholder || is_cube(stage.kind)) return DType::Float16;
  // A Vector stage keeps fp32 when an operand is held in fp32 (downstream of a cast to fp32).
  for (const StagePtr& operand : stage.operands)
    if (stored_dtype(*operand, device_dtype) == DType::Float32) return DType::Float32;
  return DType::Float16;
}

Tensor evaluate(const TensorExpr& output, const std::map<std::string, const Tensor*>& inputs,
                const EvaluateOptions& options) {
  if (!output.defined()) throw Error(ErrorCode::TbeExpressionInvalid, "evaluate: the expression is empty");
  if (options.numerics == Numerics::Golden) {
    Evaluator<double> evaluator(options);
    return to_tensor(evaluator.run(output, inputs), DType::Float64, output.shape());
  }
  Evaluator<float> evaluator(options);
  const DType dtype = output.dtype() == DType::Int32 ? DType::Float32 : output.dtype();
  return to_tensor(evaluator.run(output, inputs), dtype, output.shape());
}

}  // namespace asc::tbe
