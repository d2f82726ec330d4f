// ATC's build step: a parsed (and fused) graph compiled for one SoC into a CompiledModel, in
// this order: the SoC and its op-info table; the dynamic-shape profiles; the precision pass
// (compute dtypes, Cast nodes, fp16 weights); then per profile static shapes, device formats,
// one task per node with its tiling (compiler/tiling.hpp), and the memory plan.
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/op_registry.hpp>

#include "compiled_model.hpp"

namespace asc::npusim {

// EE5004 without soc_version; EE5007 for an unknown SoC; EE2001 for nodes without a kernel;
// EE1009 for dynamic-shape flags that do not fit the graph; EE1005 when a profile's shapes do not
// become static; EE2002 when the precision mode asks for a dtype the SoC has no kernel for;
// EE3001 when a profile's memory plan exceeds the device memory. `source_model` is left empty
// (the caller knows the file).
CompiledModel compile_model(const Graph& graph, const OpRegistry& ops, const CompileOptions& options);

}  // namespace asc::npusim
