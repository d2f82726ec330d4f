// A plugin's own fusion rule (since SDK 0.4): "this chain of operators becomes my operator",
// e.g. Conv -> BatchNormalization -> Relu becomes com.example::FusedConvBnRelu with BN folded
// into per-channel scale and offset constants.
//
//   registrar.add_pass(asc::make_chain_fusion({
//       .name = "ConvBnReluToFusedConvBnRelu",
//       .description = "Conv -> BatchNormalization -> Relu becomes com.example::FusedConvBnRelu",
//       .pattern = {"Conv", "BatchNormalization", "Relu"},
//       .rewrite = [](const asc::ChainMatch& match) -> std::optional<asc::ChainReplacement> {...}}));
//
// The rule is a pass (category GraphFusion) of the plugin, so the plugin declares kPassKind. The
// fusion stage runs it before the built-in passes; a fusion switch file turns it off by its name,
// or with every other plugin's fusion pass by the seed's `CustomFusion` key; fusion_result.json
// counts its matches and rewrites, and the new node's provenance lists the chain's nodes (so
// op_validate compares it at the chain's last output).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "asc/sdk/graph.hpp"
#include "asc/sdk/pass.hpp"

namespace asc {

// One match: the chain's nodes in order (each one's output 0 read by the next alone).
struct ChainMatch {
  const Graph& graph;
  std::vector<const Node*> nodes;
  // The value of a constant input (an initializer), or nullptr.
  const Tensor* constant(const std::string& value) const;
};

struct ChainReplacement {
  std::string domain;
  std::string op_type;
  Attributes attributes;
  // Inputs of the new node: existing value names, "" for an omitted input, or keys of
  // `constants` (added as initializers under fresh names).
  std::vector<std::string> inputs;
  std::map<std::string, Tensor> constants;
  std::int64_t domain_opset = 1;  // imported for `domain` when the graph lacks it
};

struct ChainFusionRule {
  std::string name;         // the pass name: the switch file's key, fusion_result.json's entry
  std::string description;
  std::vector<std::string> pattern;  // op types of the default domain, first to last
  // The replacement for one match, or nullopt to leave it (a non-constant BN parameter, ...).
  std::function<std::optional<ChainReplacement>(const ChainMatch&)> rewrite;
};

// The rule as a pass: each match becomes one node named and writing as the chain's last node.
std::shared_ptr<const Pass> make_chain_fusion(ChainFusionRule rule);

}  // namespace asc
