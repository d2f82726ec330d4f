// LSTM with gates i, o, f, c and optional peepholes P = [Pi, Po, Pf]; f = Sigmoid, g = h = Tanh
// by default. input_forget couples the forget gate to the input gate (f = 1 - i).
//   i = f(X*Wi^T + H*Ri^T + Pi . C + Wbi + Rbi)    f = f(X*Wf^T + H*Rf^T + Pf . C + Wbf + Rbf)
//   C = f . C + i . g(X*Wc^T + H*Rc^T + Wbc + Rbc)
//   o = f(X*Wo^T + H*Ro^T + Po . C + Wbo + Rbo)    H = o . h(C)
#include <asc/sdk/error.hpp>

#include "rnn/recurrent.hpp"

namespace asc::ops {
namespace {

constexpr std::size_t kInitialC = 6;
constexpr std::size_t kPeepholes = 7;

void lstm_compute(KernelContext& context) {
  const RecurrentInputs in = read_recurrent_inputs(context, 4, static_cast<int>(kInitialC));
  const std::vector<Activation> activations =
      recurrent_activations(context.node, in.directions, {"Sigmoid", "Tanh", "Tanh"});
  const bool input_forget = context.attrs().get_int("input_forget", 0) != 0;
  const std::int64_t h = in.hidden;
  std::vector<double> peepholes(static_cast<std::size_t>(in.directions * 3 * h), 0.0);
  if (context.has_input(kPeepholes)) {
    peepholes = context.input(kPeepholes).to_doubles();
    if (static_cast<std::int64_t>(peepholes.size()) != in.directions * 3 * h)
      throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": P must be [directions, 3*hidden_size]");
  }
  std::vector<double> gates(static_cast<std::size_t>(4 * h));
  const RecurrentOutputs out = run_recurrence(in, [&](std::int64_t d, const double* x, RecurrentState& state) {
    const Activation& f = activations[static_cast<std::size_t>(3 * d)];
    const Activation& g = activations[static_cast<std::size_t>(3 * d + 1)];
    const Activation& out_activation = activations[static_cast<std::size_t>(3 * d + 2)];
    const double* p = peepholes.data() + d * 3 * h;
    for (std::int64_t k = 0; k < 4 * h; ++k) gates[k] = in.wb[d * 4 * h + k] + in.rb[d * 4 * h + k];
    add_matrix_vector(in.w.data() + d * 4 * h * in.input_size, 4 * h, in.input_size, x, gates.data());
    add_matrix_vector(in.r.data() + d * 4 * h * h, 4 * h, h, state.h.data(), gates.data());
    for (std::int64_t k = 0; k < h; ++k) {
      const double input_gate = f(clipped(gates[k] + p[k] * state.c[k], in.clip));
      const double forget_gate =
          input_forget ? 1.0 - input_gate : f(clipped(gates[2 * h + k] + p[2 * h + k] * state.c[k], in.clip));
      const double candidate = g(clipped(gates[3 * h + k], in.clip));
      state.c[k] = forget_gate * state.c[k] + input_gate * candidate;
      const double output_gate = f(clipped(gates[h + k] + p[h + k] * state.c[k], in.clip));
      state.h[k] = output_gate * out_activation(state.c[k]);
    }
  });
  write_recurrent_outputs(context, in, out, true);
}

CostFacts lstm_cost(const CostContext& context) {
  return recurrent_cost(context, 4);
}

}  // namespace

ASC_REGISTER_OP("", "LSTM", 11, 17, infer_recurrent, lstm_compute, lstm_cost);

}  // namespace asc::ops
