// GRU with gates z (update), r (reset), h (candidate); f = Sigmoid, g = Tanh by default.
//   z = f(X*Wz^T + H*Rz^T + Wbz + Rbz)    r = f(X*Wr^T + H*Rr^T + Wbr + Rbr)
//   h = g(X*Wh^T + (r . H)*Rh^T + Rbh + Wbh)          linear_before_reset = 0
//   h = g(X*Wh^T + r . (H*Rh^T + Rbh) + Wbh)          linear_before_reset != 0
//   H = (1 - z) . h + z . H
#include "rnn/recurrent.hpp"

namespace asc::ops {
namespace {

void gru_compute(KernelContext& context) {
  const RecurrentInputs in = read_recurrent_inputs(context, 3, -1);
  const std::vector<Activation> activations = recurrent_activations(context.node, in.directions, {"Sigmoid", "Tanh"});
  const bool linear_before_reset = context.attrs().get_int("linear_before_reset", 0) != 0;
  const std::int64_t h = in.hidden;
  std::vector<double> from_x(static_cast<std::size_t>(3 * h)), from_h(static_cast<std::size_t>(3 * h));
  std::vector<double> reset_h(static_cast<std::size_t>(h)), update(static_cast<std::size_t>(h));
  const RecurrentOutputs out = run_recurrence(in, [&](std::int64_t d, const double* x, RecurrentState& state) {
    const Activation& f = activations[static_cast<std::size_t>(2 * d)];
    const Activation& g = activations[static_cast<std::size_t>(2 * d + 1)];
    const double* r_matrix = in.r.data() + d * 3 * h * h;
    std::copy_n(in.wb.begin() + d * 3 * h, 3 * h, from_x.begin());
    std::copy_n(in.rb.begin() + d * 3 * h, 3 * h, from_h.begin());
    add_matrix_vector(in.w.data() + d * 3 * h * in.input_size, 3 * h, in.input_size, x, from_x.data());
    add_matrix_vector(r_matrix, 2 * h, h, state.h.data(), from_h.data());
    for (std::int64_t k = 0; k < h; ++k) {
      update[k] = f(clipped(from_x[k] + from_h[k], in.clip));
      const double reset = f(clipped(from_x[h + k] + from_h[h + k], in.clip));
      reset_h[k] = linear_before_reset ? reset : reset * state.h[k];
    }
    if (linear_before_reset) {
      add_matrix_vector(r_matrix + 2 * h * h, h, h, state.h.data(), from_h.data() + 2 * h);
      for (std::int64_t k = 0; k < h; ++k) from_h[2 * h + k] *= reset_h[k];
    } else {
      add_matrix_vector(r_matrix + 2 * h * h, h, h, reset_h.data(), from_h.data() + 2 * h);
    }
    for (std::int64_t k = 0; k < h; ++k) {
      const double candidate = g(clipped(from_x[2 * h + k] + from_h[2 * h + k], in.clip));
      state.h[k] = (1.0 - update[k]) * candidate + update[k] * state.h[k];
    }
  });
  write_recurrent_outputs(context, in, out, false);
}

CostFacts gru_cost(const CostContext& context) {
  return recurrent_cost(context, 3);
}

}  // namespace

ASC_REGISTER_OP("", "GRU", 11, 17, infer_recurrent, gru_compute, gru_cost);

}  // namespace asc::ops
