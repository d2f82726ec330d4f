// What RNN, GRU and LSTM share: activation lists, reading the inputs (both layouts) into
// [seq, batch, input] / [directions, batch, hidden] order, running the cell over every
// direction, batch row and valid time step, writing the outputs, inference and cost.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

// One of ONNX's recurrent activation functions with its alpha/beta.
struct Activation {
  enum class Kind { Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus };
  Kind kind = Kind::Tanh;
  double alpha = 0.0;
  double beta = 0.0;
  double operator()(double x) const;
};

// `per_direction` activations for each direction: the `activations` attribute (forward ones
// first, then reverse) or `defaults` repeated. activation_alpha/beta are consumed in order by
// the functions that take them.
std::vector<Activation> recurrent_activations(const Node& node, std::int64_t directions,
                                              const std::vector<std::string>& defaults);

struct RecurrentInputs {
  std::int64_t seq_length = 0, batch = 0, input_size = 0, hidden = 0, directions = 1;
  bool reverse = false;       // direction == "reverse" (one direction, run backwards)
  bool batch_first = false;   // layout == 1 (opset 14)
  double clip = 0.0;          // 0: no clipping of the gate pre-activations
  std::vector<double> x;      // [seq, batch, input]
  std::vector<double> w;      // [directions, gates * hidden, input]
  std::vector<double> r;      // [directions, gates * hidden, hidden]
  std::vector<double> wb;     // [directions, gates * hidden], the first half of B (zero when absent)
  std::vector<double> rb;     // [directions, gates * hidden], the second half of B
  std::vector<std::int64_t> lengths;    // per batch row
  std::vector<double> initial_h;        // [directions, batch, hidden]
  std::vector<double> initial_c;        // [directions, batch, hidden] (LSTM, input 6)

  // Whether direction d runs from the last valid step to the first.
  bool backwards(std::int64_t d) const { return reverse || d == 1; }
};

// Inputs X, W, R, B, sequence_lens, initial_h (and initial_c at `initial_c_input` when >= 0).
RecurrentInputs read_recurrent_inputs(const KernelContext& context, std::int64_t gates, int initial_c_input);

// The hidden (and cell) state of one batch row in one direction, stepped by the cell.
struct RecurrentState {
  std::vector<double> h;
  std::vector<double> c;
};

// Outputs in [seq, directions, batch, hidden] (Y) and [directions, batch, hidden] (Y_h, Y_c).
struct RecurrentOutputs {
  std::vector<double> y, y_h, y_c;
};

// Calls step(direction, x_row, state) for each valid time step of every batch row and direction
// in processing order, recording h into Y and the final states into Y_h / Y_c. Steps beyond a
// row's sequence length leave Y at 0.
template <class Step>
RecurrentOutputs run_recurrence(const RecurrentInputs& in, Step&& step) {
  const std::int64_t hidden = in.hidden;
  RecurrentOutputs out;
  out.y.assign(static_cast<std::size_t>(in.seq_length * in.directions * in.batch * hidden), 0.0);
  out.y_h.assign(static_cast<std::size_t>(in.directions * in.batch * hidden), 0.0);
  out.y_c = out.y_h;
  for (std::int64_t d = 0; d < in.directions; ++d)
    for (std::int64_t b = 0; b < in.batch; ++b) {
      const std::size_t state_at = static_cast<std::size_t>((d * in.batch + b) * hidden);
      RecurrentState state{{in.initial_h.begin() + state_at, in.initial_h.begin() + state_at + hidden},
                           {in.initial_c.begin() + state_at, in.initial_c.begin() + state_at + hidden}};
      const std::int64_t length = in.lengths[static_cast<std::size_t>(b)];
      for (std::int64_t s = 0; s < length; ++s) {
        const std::int64_t t = in.backwards(d) ? length - 1 - s : s;
        step(d, in.x.data() + (t * in.batch + b) * in.input_size, state);
        std::copy(state.h.begin(), state.h.end(), out.y.begin() + ((t * in.directions + d) * in.batch + b) * hidden);
      }
      std::copy(state.h.begin(), state.h.end(), out.y_h.begin() + static_cast<std::ptrdiff_t>(state_at));
      std::copy(state.c.begin(), state.c.end(), out.y_c.begin() + static_cast<std::ptrdiff_t>(state_at));
    }
  return out;
}

// gates[g] = sum_i matrix[g][i] * vector[i] added in, for a row-major [rows, columns] matrix.
void add_matrix_vector(const double* matrix, std::int64_t rows, std::int64_t columns, const double* vector,
                       double* gates);

// Clips to [-clip, clip] when clip > 0.
inline double clipped(double value, double clip) {
  return clip > 0.0 ? (value < -clip ? -clip : (value > clip ? clip : value)) : value;
}

// Sets outputs Y, Y_h and (when `with_cell`) Y_c in the node's layout and the input dtype;
// omitted outputs stay undefined.
void write_recurrent_outputs(KernelContext& context, const RecurrentInputs& in, const RecurrentOutputs& out,
                             bool with_cell);

// Y, Y_h (and Y_c) shapes from X, W and hidden_size.
void infer_recurrent(InferenceContext& context);

// Cube work of the input and recurrence GEMMs: 2 * seq * batch * gates*hidden * (input + hidden)
// per direction.
CostFacts recurrent_cost(const CostContext& context, std::int64_t gates);

}  // namespace asc::ops
