// ATC's precision decisions: the dtype each operator computes in under --precision_mode,
// --keep_dtype and --output_type, from the SoC's op-info table. Rewrites the graph the way ATC
// does: Cast nodes (ordinary nodes, with provenance) where a value's device dtype changes, and
// float weights rounded to fp16 where their consumers read fp16.
//
// Host storage convention (compiled_model.hpp): values keep their host dtype; an inserted Cast's
// output keeps the host dtype of its input (its `to` attribute is the device dtype), except a
// Cast producing a graph output, whose dtype is what the caller receives.
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/op_registry.hpp>
#include <map>
#include <string>

#include "compiled_model.hpp"
#include "op_info.hpp"

namespace asc::npusim {

enum class PrecisionMode : std::uint8_t { ForceFp16, AllowFp32ToFp16, MustKeepOriginDtype, AllowMixPrecision, ForceFp32 };

// ATC's spellings, synonyms included (mixed_float16 and allow_mix_precision_fp16 are
// allow_mix_precision, cube_fp16in_fp32out is force_fp32, "" is force_fp16); anything else is
// EE5007 listing them.
PrecisionMode parse_precision_mode(const std::string& text);

struct NodePrecision {
  ComputeUnit unit = ComputeUnit::Vector;  // from `units`; inserted Casts are Vector (None when
                                           // only the host representation changes)
  DType compute_dtype = DType::Undefined;  // dtype of the float operands the kernel reads
  Engine engine = Engine::AiCore;
  std::string impl_mode;  // high_precision / high_performance
};

struct PrecisionResult {
  std::map<std::string, NodePrecision> nodes;  // every node of the rewritten graph, by name
  std::map<std::string, DType> device_dtypes;  // every value (inputs, weights, activations)
};

// `units` gives each node's compute unit (from its cost facts); nodes the pass inserts are
// vector tasks. EE2002 names the node, op type, dtype and SoC when the mode asks for a dtype
// neither the AI Core nor an AI CPU kernel has; EE5007 names an --output_type or --keep_dtype
// entry that matches no node.
PrecisionResult apply_precision(Graph& graph, const OpInfoTable& op_info, const CompileOptions& options,
                                const std::map<std::string, ComputeUnit>& units);

// The compiled graph as any other backend runs it (Backend::read_model_graph). Under the host
// storage convention an inserted Cast's `to` is the device dtype while its output keeps the host
// dtype; only npusim's executor reconciles the two (it stores the Cast's fp16 result as float32).
// A backend that runs each node's kernel as the node says would hand fp16 tensors to kernels
// whose other operands (weights, widened to their host dtype) are float32, which Conv refuses
// (EE2003 "X, W and B must have the same dtype"). So every Cast here casts to its output's
// declared dtype: the graph computes in host dtypes throughout, with the .om's fp16-rounded
// weights, and the Casts keep their names and places, so dumps still line up with npusim's.
Graph host_graph(Graph graph);

}  // namespace asc::npusim
