// Identity: the output shares the input's buffer (no data moves).
#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

void identity_compute(KernelContext& context) { context.outputs[0] = context.input(0); }

}  // namespace

ASC_REGISTER_OP("", "Identity", 11, 17, infer_like_input, identity_compute, metadata_cost);

}  // namespace asc::ops
