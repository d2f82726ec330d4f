// Backend support (added to SDK 0.4; no existing declaration changed): a kernel's outputs checked against the
// types shape inference declared for them, so a plugin kernel that writes the wrong shape or dtype is named
// at its own node instead of failing at the next one (or not at all).
#pragma once

#include "asc/sdk/backend/execution_plan.hpp"

namespace asc {

// Throws EE8001 naming the node, its op type with domain, the plugin that registered the kernel,
// the output index and name, and the declared against the produced dtype and shape, when an
// output of `context` (after run_kernel) disagrees with `graph`'s value info for it, or, where
// the graph does not know the output's dtype and rank (ONNX's inference skips a custom domain's
// ops), with what the operator's own inference gives for the inputs the kernel was given.
// Symbolic or unknown dimensions are not checked. On a backend that computes at a device dtype
// (KernelContext::device_dtype set: the NPU simulator) Float16 is accepted for a value the host
// holds as Float32.
void check_kernel_outputs(const PlanStep& step, const KernelContext& context, const Graph& graph);

}  // namespace asc
