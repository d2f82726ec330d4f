#include "rnn/recurrent.hpp"

#include <cmath>
#include <map>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>

namespace asc::ops {
namespace {

[[noreturn]] void recurrent_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

struct ActivationSpec {
  Activation::Kind kind;
  int parameters;  // how many of (alpha, beta) it takes from the attribute lists
  double alpha, beta;  // defaults
};

const std::map<std::string, ActivationSpec>& activation_specs() {
  using K = Activation::Kind;
  static const std::map<std::string, ActivationSpec> specs{
      {"Relu", {K::Relu, 0, 0, 0}},
      {"Tanh", {K::Tanh, 0, 0, 0}},
      {"Sigmoid", {K::Sigmoid, 0, 0, 0}},
      {"Affine", {K::Affine, 2, 1.0, 0.0}},
      {"LeakyRelu", {K::LeakyRelu, 1, 0.01, 0}},
      {"ThresholdedRelu", {K::ThresholdedRelu, 1, 1.0, 0}},
      {"ScaledTanh", {K::ScaledTanh, 2, 1.0, 1.0}},
      {"HardSigmoid", {K::HardSigmoid, 2, 0.2, 0.5}},
      {"Elu", {K::Elu, 1, 1.0, 0}},
      {"Softsign", {K::Softsign, 0, 0, 0}},
      {"Softplus", {K::Softplus, 0, 0, 0}},
  };
  return specs;
}

// The tensor of input i as doubles, or `count` zeros when the input is omitted.
std::vector<double> doubles_or_zeros(const KernelContext& context, std::size_t i, std::int64_t count) {
  if (!context.has_input(i)) return std::vector<double>(static_cast<std::size_t>(count), 0.0);
  std::vector<double> values = context.input(i).to_doubles();
  if (static_cast<std::int64_t>(values.size()) != count)
    recurrent_fail(context.node, "input " + std::to_string(i) + " of shape " +
                                     shape_to_string(context.input(i).shape()) + " does not hold " +
                                     std::to_string(count) + " elements");
  return values;
}

// Swaps the two leading axes of a row-major [p, q, inner] array.
std::vector<double> swap_leading(const std::vector<double>& values, std::int64_t p, std::int64_t q, std::int64_t inner) {
  std::vector<double> result(values.size());
  for (std::int64_t i = 0; i < p; ++i)
    for (std::int64_t j = 0; j < q; ++j)
      std::copy_n(values.begin() + (i * q + j) * inner, inner, result.begin() + (j * p + i) * inner);
  return result;
}

std::int64_t direction_count(const Node& node, bool* reverse) {
  const std::string direction = node.attributes.get_string("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    recurrent_fail(node, "direction '" + direction + "' is not forward, reverse or bidirectional");
  if (reverse != nullptr) *reverse = direction == "reverse";
  return direction == "bidirectional" ? 2 : 1;
}

}  // namespace

double Activation::operator()(double x) const {
  switch (kind) {
    case Kind::Relu: return x > 0 ? x : 0;
    case Kind::Tanh: return std::tanh(x);
    case Kind::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case Kind::Affine: return alpha * x + beta;
    case Kind::LeakyRelu: return x >= 0 ? x : alpha * x;
    case Kind::ThresholdedRelu: return x > alpha ? x : 0;
    case Kind::ScaledTanh: return alpha * std::tanh(beta * x);
    case Kind::HardSigmoid: return std::max(0.0, std::min(1.0, alpha * x + beta));
    case Kind::Elu: return x >= 0 ? x : alpha * (std::exp(x) - 1.0);
    case Kind::Softsign: return x / (1.0 + std::abs(x));
    case Kind::Softplus: return std::log1p(std::exp(x));
  }
  return x;
}

std::vector<Activation> recurrent_activations(const Node& node, std::int64_t directions,
                                              const std::vector<std::string>& defaults) {
  std::vector<std::string> names = node.attributes.get_strings("activations");
  const auto per_direction = defaults.size();
  if (names.empty())
    for (std::int64_t d = 0; d < directions; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
  if (names.size() != per_direction * static_cast<std::size_t>(directions))
    recurrent_fail(node, "expects " + std::to_string(per_direction * static_cast<std::size_t>(directions)) +
                             " activations, got " + std::to_string(names.size()));
  const std::vector<float> alphas = node.attributes.get_floats("activation_alpha");
  const std::vector<float> betas = node.attributes.get_floats("activation_beta");
  std::size_t next_alpha = 0, next_beta = 0;
  std::vector<Activation> result;
  for (const std::string& name : names) {
    const auto found = activation_specs().find(name);
    if (found == activation_specs().end()) recurrent_fail(node, "unknown activation '" + name + "'");
    const ActivationSpec& spec = found->second;
    Activation activation{spec.kind, spec.alpha, spec.beta};
    if (spec.parameters >= 1 && next_alpha < alphas.size()) activation.alpha = alphas[next_alpha++];
    if (spec.parameters >= 2 && next_beta < betas.size()) activation.beta = betas[next_beta++];
    result.push_back(activation);
  }
  return result;
}

RecurrentInputs read_recurrent_inputs(const KernelContext& context, std::int64_t gates, int initial_c_input) {
  const Node& node = context.node;
  RecurrentInputs in;
  in.directions = direction_count(node, &in.reverse);
  in.batch_first = context.opset >= 14 && node.attributes.get_int("layout", 0) != 0;
  in.clip = node.attributes.get_float("clip", 0.0f);
  const Tensor& x = context.input(0);
  const Tensor& w = context.input(1);
  const Tensor& r = context.input(2);
  if (!is_floating(x.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": " + node.op_type + " does not support " + std::string(dtype_name(x.dtype())));
  if (x.rank() != 3 || w.rank() != 3 || r.rank() != 3)
    recurrent_fail(node, "X, W and R must be 3-D, got " + shape_to_string(x.shape()) + ", " +
                             shape_to_string(w.shape()) + ", " + shape_to_string(r.shape()));
  in.seq_length = x.shape()[in.batch_first ? 1 : 0];
  in.batch = x.shape()[in.batch_first ? 0 : 1];
  in.input_size = x.shape()[2];
  in.hidden = node.attributes.get_int("hidden_size", r.shape()[2]);
  const Shape expected_w{in.directions, gates * in.hidden, in.input_size};
  const Shape expected_r{in.directions, gates * in.hidden, in.hidden};
  if (w.shape() != expected_w || r.shape() != expected_r)
    recurrent_fail(node, "expects W " + shape_to_string(expected_w) + " and R " +
                             shape_to_string(expected_r) + ", got " + shape_to_string(w.shape()) + " and " +
                             shape_to_string(r.shape()));

  in.x = x.to_doubles();
  if (in.batch_first) in.x = swap_leading(in.x, in.batch, in.seq_length, in.input_size);
  in.w = w.to_doubles();
  in.r = r.to_doubles();
  const std::int64_t gate_rows = gates * in.hidden;
  const std::vector<double> bias = doubles_or_zeros(context, 3, in.directions * 2 * gate_rows);
  for (std::int64_t d = 0; d < in.directions; ++d) {
    const auto start = bias.begin() + d * 2 * gate_rows;
    in.wb.insert(in.wb.end(), start, start + gate_rows);
    in.rb.insert(in.rb.end(), start + gate_rows, start + 2 * gate_rows);
  }

  if (context.has_input(4)) {
    in.lengths = context.input(4).to_int64s();
    if (static_cast<std::int64_t>(in.lengths.size()) != in.batch)
      recurrent_fail(node, "sequence_lens must have one entry per batch row");
    for (const std::int64_t length : in.lengths)
      if (length < 0 || length > in.seq_length)
        recurrent_fail(node, "sequence length " + std::to_string(length) + " is outside [0, " +
                                 std::to_string(in.seq_length) + "]");
  } else {
    in.lengths.assign(static_cast<std::size_t>(in.batch), in.seq_length);
  }

  const std::int64_t state_count = in.directions * in.batch * in.hidden;
  auto read_state = [&](int input) {
    std::vector<double> state = input >= 0 ? doubles_or_zeros(context, static_cast<std::size_t>(input), state_count)
                                           : std::vector<double>(static_cast<std::size_t>(state_count), 0.0);
    return in.batch_first && input >= 0 && context.has_input(static_cast<std::size_t>(input))
               ? swap_leading(state, in.batch, in.directions, in.hidden)
               : state;
  };
  in.initial_h = read_state(5);
  in.initial_c = read_state(initial_c_input);
  return in;
}

void add_matrix_vector(const double* matrix, std::int64_t rows, std::int64_t columns, const double* vector,
                       double* gates) {
  for (std::int64_t row = 0; row < rows; ++row) {
    double sum = 0.0;
    const double* m = matrix + row * columns;
    for (std::int64_t col = 0; col < columns; ++col) sum += m[col] * vector[col];
    gates[row] += sum;
  }
}

void write_recurrent_outputs(KernelContext& context, const RecurrentInputs& in, const RecurrentOutputs& out,
                             bool with_cell) {
  const DType dtype = context.input(0).dtype();
  const std::int64_t s = in.seq_length, d = in.directions, b = in.batch, h = in.hidden;
  auto defined = [&](std::size_t i) { return i < context.node.outputs.size() && !context.node.outputs[i].empty(); };
  if (defined(0)) {
    // [seq, dirs, batch, hidden], or [batch, seq, dirs, hidden] batch-first.
    const std::vector<double> y = in.batch_first ? swap_leading(out.y, s * d, b, h) : out.y;
    const Shape shape = in.batch_first ? Shape{b, s, d, h} : Shape{s, d, b, h};
    context.outputs[0] = Tensor::from_vector(shape, y).cast(dtype);
  }
  auto state = [&](const std::vector<double>& values) {
    return in.batch_first ? Tensor::from_vector(Shape{b, d, h}, swap_leading(values, d, b, h)).cast(dtype)
                          : Tensor::from_vector(Shape{d, b, h}, values).cast(dtype);
  };
  if (defined(1)) context.outputs[1] = state(out.y_h);
  if (with_cell && defined(2)) context.outputs[2] = state(out.y_c);
}

void infer_recurrent(InferenceContext& context) {
  const Node& node = context.node;
  const ValueInfo& x = context.input(0);
  const std::int64_t directions = direction_count(node, nullptr);
  const bool batch_first = context.opset >= 14 && node.attributes.get_int("layout", 0) != 0;
  Dim hidden = node.attributes.has("hidden_size") ? Dim(node.attributes.get_int("hidden_size", 0)) : Dim();
  if (!hidden.is_static() && context.has_input(2) && context.input(2).shape && context.input(2).shape->size() == 3)
    hidden = (*context.input(2).shape)[2];
  Dim seq, batch;
  if (x.shape && x.shape->size() == 3) {
    seq = (*x.shape)[batch_first ? 1 : 0];
    batch = (*x.shape)[batch_first ? 0 : 1];
  }
  for (std::size_t i = 0; i < context.outputs.size(); ++i) {
    context.outputs[i].dtype = x.dtype;
    if (i == 0)
      context.outputs[i].shape = batch_first ? std::vector<Dim>{batch, seq, directions, hidden}
                                             : std::vector<Dim>{seq, directions, batch, hidden};
    else
      context.outputs[i].shape = batch_first ? std::vector<Dim>{batch, directions, hidden}
                                             : std::vector<Dim>{directions, batch, hidden};
  }
}

CostFacts recurrent_cost(const CostContext& context, std::int64_t gates) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Cube};
  if (context.inputs.size() < 3 || context.inputs[0] == nullptr || context.inputs[1] == nullptr) return facts;
  const auto x = context.inputs[0]->has_static_shape() ? context.inputs[0]->static_shape() : Shape{};
  const auto w = context.inputs[1]->has_static_shape() ? context.inputs[1]->static_shape() : Shape{};
  if (x.size() != 3 || w.size() != 3) return facts;
  const double hidden = static_cast<double>(w[1] / gates);
  // seq * batch is the same in either layout.
  facts.flops = 2.0 * static_cast<double>(x[0] * x[1]) * static_cast<double>(w[0]) * static_cast<double>(w[1]) *
                (static_cast<double>(x[2]) + hidden);
  return facts;
}

}  // namespace asc::ops
