// RNN: H = f(X*W^T + H*R^T + Wb + Rb), f = Tanh by default.
#include "rnn/recurrent.hpp"

namespace asc::ops {
namespace {

void rnn_compute(KernelContext& context) {
  const RecurrentInputs in = read_recurrent_inputs(context, 1, -1);
  const std::vector<Activation> activations = recurrent_activations(context.node, in.directions, {"Tanh"});
  const std::int64_t h = in.hidden;
  std::vector<double> gates(static_cast<std::size_t>(h));
  const RecurrentOutputs out = run_recurrence(in, [&](std::int64_t d, const double* x, RecurrentState& state) {
    for (std::int64_t k = 0; k < h; ++k) gates[k] = in.wb[d * h + k] + in.rb[d * h + k];
    add_matrix_vector(in.w.data() + d * h * in.input_size, h, in.input_size, x, gates.data());
    add_matrix_vector(in.r.data() + d * h * h, h, h, state.h.data(), gates.data());
    for (std::int64_t k = 0; k < h; ++k) state.h[k] = activations[d](clipped(gates[k], in.clip));
  });
  write_recurrent_outputs(context, in, out, false);
}

CostFacts rnn_cost(const CostContext& context) {
  return recurrent_cost(context, 1);
}

}  // namespace

ASC_REGISTER_OP("", "RNN", 11, 17, infer_recurrent, rnn_compute, rnn_cost);

}  // namespace asc::ops
