#include "precision_pass.hpp"

#include <asc/sdk/error.hpp>
#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "precision.hpp"

namespace asc::npusim {
namespace {

// ONNX TensorProto.DataType codes of the dtypes a Cast inserted here can target.
std::optional<std::int64_t> cast_code(DType dtype) {
  switch (dtype) {
    case DType::Float32: return 1;
    case DType::UInt8: return 2;
    case DType::Int8: return 3;
    case DType::Float16: return 10;
    case DType::BFloat16: return 16;
    default: break;
  }
  return std::nullopt;
}

std::int64_t onnx_code(DType dtype) {
  if (const std::optional<std::int64_t> code = cast_code(dtype)) return *code;
  throw Error(ErrorCode::Internal, "precision pass: no Cast target for dtype " + std::string(dtype_name(dtype)));
}

DType output_type_dtype(const std::string& text) {
  if (text == "FP16") return DType::Float16;
  if (text == "UINT8") return DType::UInt8;
  return DType::Float32;
}

std::string dtype_list(const std::vector<DType>& dtypes) {
  std::string text;
  for (const DType dtype : dtypes) text += (text.empty() ? "" : ", ") + std::string(dtype_name(dtype));
  return text.empty() ? "none" : text;
}

class PrecisionPass {
 public:
  PrecisionPass(Graph& graph, const OpInfoTable& table, const CompileOptions& options,
                const std::map<std::string, ComputeUnit>& units)
      : graph_(graph), table_(table), options_(options), units_(units), mode_(parse_precision_mode(options.precision_mode)) {}

  PrecisionResult run() {
    for (const std::string& input : graph_.inputs) result_.device_dtypes[input] = host_dtype(input);
    const std::vector<Node*> original(graph_.nodes().begin(), graph_.nodes().end());
    take_fp16_inputs();
    for (Node* node : original) decide(*node);
    place_weights();
    cast_outputs();
    check_keep_dtype_entries();
    graph_.sort_topologically();
    return std::move(result_);
  }

 private:
  DType host_dtype(const std::string& value) const {
    if (const auto init = graph_.initializers.find(value); init != graph_.initializers.end()) return init->second.dtype();
    const ValueInfo* info = graph_.value_info(value);
    return info == nullptr ? DType::Undefined : info->dtype;
  }

  DType device_dtype(const std::string& value) const {
    const auto found = result_.device_dtypes.find(value);
    return found == result_.device_dtypes.end() ? host_dtype(value) : found->second;
  }

  // The node's float dtype as the model declares it: its first float output, else first float input.
  DType original_float_dtype(const Node& node) const {
    for (const auto* names : {&node.outputs, &node.inputs})
      for (const std::string& name : *names)
        if (!name.empty() && is_floating(host_dtype(name))) return host_dtype(name);
    return DType::Undefined;
  }

  // Float inputs that carry the compute dtype (not the ones the op fixes, like Resize's scales).
  bool follows_compute_dtype(const Node& node, const OpInfo& info, std::size_t input, DType original) const {
    const std::string& name = node.inputs[input];
    return !name.empty() && host_dtype(name) == original &&
           std::find(info.fixed_dtype_inputs.begin(), info.fixed_dtype_inputs.end(), static_cast<int>(input)) ==
               info.fixed_dtype_inputs.end();
  }

  bool keeps_dtype(const Node& node) {
    bool kept = false;
    for (const std::string& entry : options_.keep_dtype_nodes) {
      const bool matches = entry.rfind("OpType::", 0) == 0
                               ? node.op_type == entry.substr(8)
                               : node.name == entry || std::find(node.provenance.begin(), node.provenance.end(), entry) !=
                                                           node.provenance.end();
      if (matches) {
        matched_keep_entries_.insert(entry);
        kept = true;
      }
    }
    return kept;
  }

  std::string impl_mode(const Node& node, const OpInfo& info) const {
    std::string requested = "high_performance";  // ATC's default for inference
    const auto& types = options_.optypelist_for_implmode;
    if (!options_.op_select_implmode.empty() &&
        (types.empty() || std::find(types.begin(), types.end(), node.op_type) != types.end()))
      requested = options_.op_select_implmode.substr(0, options_.op_select_implmode.find("_for_all"));
    const auto& modes = info.impl_modes;
    return modes.empty() || std::find(modes.begin(), modes.end(), requested) != modes.end() ? requested : modes.front();
  }

  struct Choice {
    DType input = DType::Undefined, output = DType::Undefined;
    Engine engine = Engine::AiCore;
  };

  // The first dtype of `preferences` some kernel of the op has (AI Core first, then AI CPU).
  Choice first_supported(const Node& node, const OpInfo& info, const std::vector<DType>& preferences) const {
    for (const DType dtype : preferences) {
      if (dtype == DType::Undefined) continue;
      if (info.supports(dtype)) return {dtype, dtype, info.engine};
      if (info.ai_cpu_supports(dtype)) return {dtype, dtype, Engine::AiCpu};
    }
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": precision_mode " + options_.precision_mode +
                    (options_.keep_dtype_nodes.empty() ? "" : " (with keep_dtype)") + " needs op type " +
                    node.op_type + " in " + std::string(dtype_name(preferences.front())) + ", and " +
                    table_.soc_version() + " has no " + std::string(dtype_name(preferences.front())) + " kernel for " +
                    node.op_type + " (AI Core: " + dtype_list(info.engine == Engine::AiCore ? info.dtypes : std::vector<DType>{}) +
                    "; AI CPU: " + dtype_list(info.engine == Engine::AiCpu ? info.dtypes : info.ai_cpu_dtypes) +
                    "; op-info " + info.source + "). Use precision_mode force_fp16 or allow_fp32_to_fp16");
  }

  Choice choose(const Node& node, const OpInfo& info, ComputeUnit unit, DType original, DType input_dtype, bool keep) const {
    if (info.engine == Engine::AiCpu) {
      const DType dtype = info.supports(original) ? original : info.dtypes.front();
      return {dtype, dtype, Engine::AiCpu};
    }
    const bool cube = unit == ComputeUnit::Cube;
    const DType f16 = DType::Float16, f32 = DType::Float32;
    if (keep || mode_ == PrecisionMode::MustKeepOriginDtype) {
      // fp16 without an fp16 AI Core kernel computes in fp32; fp32 without an fp32 AI Core
      // kernel falls back to an AI CPU fp32 kernel, else fails (ATC's documented rule).
      if (original == f16 && !info.supports(f16)) return first_supported(node, info, {f32, f16});
      return first_supported(node, info, {original});
    }
    switch (mode_) {
      case PrecisionMode::ForceFp16:
        return first_supported(node, info, {f16, original});
      case PrecisionMode::AllowFp32ToFp16:
        return cube ? first_supported(node, info, {f16, original}) : first_supported(node, info, {original, f16});
      case PrecisionMode::AllowMixPrecision:
        switch (info.precision_reduce) {
          case PrecisionReduce::White: return first_supported(node, info, {f16, original});
          case PrecisionReduce::Black: return first_supported(node, info, {original == f16 ? f32 : original, f16});
          case PrecisionReduce::Gray: return first_supported(node, info, {input_dtype, original, f16});
        }
        break;
      case PrecisionMode::ForceFp32:
        if (cube && info.fp32_output_from_fp16 && info.supports(f16)) return {f16, f32, info.engine};
        return first_supported(node, info, {f32, f16});
      case PrecisionMode::MustKeepOriginDtype:
        break;
    }
    return first_supported(node, info, {original});
  }

  void decide(Node& node) {
    const auto unit_found = units_.find(node.name);
    const ComputeUnit unit = unit_found == units_.end() ? ComputeUnit::Vector : unit_found->second;
    const OpInfo& info = table_.find(node.domain, node.op_type);
    const DType original = original_float_dtype(node);
    NodePrecision& decision = result_.nodes[node.name];
    decision.unit = unit;
    decision.impl_mode = impl_mode(node, info);

    if (unit == ComputeUnit::None || original == DType::Undefined) {
      // Metadata ops pass their data input's device dtype through; ops without float operands
      // compute in their own (integer) dtype.
      DType passed = DType::Undefined;
      const bool metadata = unit == ComputeUnit::None && original != DType::Undefined && !node.inputs.empty() &&
                            !node.inputs[0].empty();
      if (metadata && !is_weight(node.inputs[0])) passed = device_dtype(node.inputs[0]);
      for (const std::string& output : node.outputs) {
        if (output.empty()) continue;
        const DType host = host_dtype(output);
        result_.device_dtypes[output] = host == original && is_floating(passed) ? passed : host;
        // A weight seen through Identity/Reshape (torch's export shares equal weights that way)
        // is still a weight: stored at the dtype its readers want.
        if (metadata && is_weight(node.inputs[0]) && host == original) weight_of_[output] = weight_of(node.inputs[0]);
      }
      decision.compute_dtype = is_floating(passed) ? passed : original;
      if (decision.compute_dtype == DType::Undefined && !node.outputs.empty()) decision.compute_dtype = host_dtype(node.outputs[0]);
      decision.engine = info.engine;
      return;
    }

    DType input_dtype = DType::Undefined;  // the first float data input's device dtype (gray ops follow it)
    for (std::size_t i = 0; i < node.inputs.size() && input_dtype == DType::Undefined; ++i)
      if (follows_compute_dtype(node, info, i, original) && !is_weight(node.inputs[i]))
        input_dtype = device_dtype(node.inputs[i]);
    const Choice choice = choose(node, info, unit, original, input_dtype, keeps_dtype(node));
    decision.compute_dtype = choice.input;
    decision.engine = choice.engine;

    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
      if (!follows_compute_dtype(node, info, i, original)) continue;
      const std::string value = node.inputs[i];
      if (is_weight(value)) weight_uses_[weight_of(value)].push_back({&node, i, choice.input});
      else if (device_dtype(value) != choice.input) node.inputs[i] = cast_of(value, choice.input);
    }
    for (const std::string& output : node.outputs)
      if (!output.empty()) result_.device_dtypes[output] = host_dtype(output) == original ? choice.output : host_dtype(output);
  }

  bool is_weight(const std::string& value) const { return graph_.is_initializer(value) || weight_of_.count(value) != 0; }
  // The initializer behind `value` (itself, or the weight a metadata op passes through).
  const std::string& weight_of(const std::string& value) const {
    const auto found = weight_of_.find(value);
    return found == weight_of_.end() ? value : found->second;
  }

  // The output of a Cast of `value` to `dtype` on the device (one per value and dtype).
  std::string cast_of(const std::string& value, DType dtype) {
    const auto key = std::make_pair(value, dtype);
    if (const auto found = casts_.find(key); found != casts_.end()) return found->second;
    const std::string output = graph_.unique_value_name(value + "_" + std::string(dtype_name(dtype)));
    const ValueInfo* info = graph_.value_info(value);
    graph_.values[output] = ValueInfo{output, host_dtype(value), info == nullptr ? std::nullopt : info->shape};
    add_cast(value, output, dtype, device_dtype(value));
    result_.device_dtypes[output] = dtype;
    casts_[key] = output;
    return output;
  }

  // An inserted Cast stands for no node of the model: its provenance stays empty, as ATC gives its
  // inserted Cast/TransData ops no original names (msit compare lists them as NPU-only).
  void add_cast(const std::string& input, const std::string& output, DType to, DType from) {
    Node cast;
    cast.name = graph_.unique_node_name("Cast_" + output);
    cast.op_type = "Cast";
    cast.attributes.set("to", onnx_code(to));
    cast.inputs = {input};
    cast.outputs = {output};
    NodePrecision& decision = result_.nodes[cast.name];
    decision.unit = from == to ? ComputeUnit::None : ComputeUnit::Vector;
    decision.compute_dtype = from;
    decision.impl_mode = "high_performance";
    graph_.add_node(std::move(cast));
  }

  // A weight read at one device dtype is stored at it (rounded to fp16 when that is fp16);
  // one read at several keeps its dtype and gets a Cast per other dtype.
  void place_weights() {
    for (const auto& [name, tensor] : graph_.initializers) result_.device_dtypes[name] = tensor.dtype();
    for (auto& [name, uses] : weight_uses_) {
      std::set<DType> wanted;
      for (const WeightUse& use : uses) wanted.insert(use.dtype);
      if (wanted.size() == 1) {
        const DType dtype = *wanted.begin();
        result_.device_dtypes[name] = dtype;
        for (const auto& [alias, weight] : weight_of_)
          if (weight == name) result_.device_dtypes[alias] = dtype;
        if (dtype == DType::Float16) graph_.initializers[name] = rounded_copy(graph_.initializers.at(name));
        continue;
      }
      for (const WeightUse& use : uses)
        if (use.dtype != host_dtype(name))
          use.node->inputs[use.input] = cast_of(use.node->inputs[use.input], use.dtype);
    }
  }

  // --input_fp16_nodes: the host feeds these inputs as fp16. The graph input becomes fp16 and its
  // readers get a free Cast (no device work) to the float32 host value they were written for,
  // which holds the fp16 values; the device reads the fp16 input directly.
  void take_fp16_inputs() {
    for (const std::string& input : options_.input_fp16_nodes) {
      if (std::find(graph_.inputs.begin(), graph_.inputs.end(), input) == graph_.inputs.end()) {
        std::string names;
        for (const std::string& name : graph_.inputs) names += (names.empty() ? "" : ", ") + name;
        throw Error(ErrorCode::ConfigBadValue, "input_fp16_nodes entry '" + input + "' is not an input of graph '" +
                                                   graph_.name + "' (inputs: " + names + ")");
      }
      const DType host = host_dtype(input);
      if (host == DType::Float16) continue;
      if (host != DType::Float32)
        throw Error(ErrorCode::ConfigBadValue, "input_fp16_nodes entry '" + input + "' is a " +
                                                   std::string(dtype_name(host)) + " input; only float32 inputs can be fed as fp16");
      const std::string widened = graph_.unique_value_name(input + "_float32");
      for (Node* consumer : graph_.consumers(input))
        std::replace(consumer->inputs.begin(), consumer->inputs.end(), input, widened);
      std::replace(graph_.outputs.begin(), graph_.outputs.end(), input, widened);
      ValueInfo& info = graph_.values[input];
      graph_.values[widened] = ValueInfo{widened, DType::Float32, info.shape};
      info.name = input;
      info.dtype = DType::Float16;
      result_.device_dtypes[input] = DType::Float16;
      result_.device_dtypes[widened] = DType::Float16;
      add_cast(input, widened, DType::Float16, DType::Float16);
    }
  }

  // Graph outputs leave the device in the requested --output_type (default: the model's dtype).
  void cast_outputs() {
    std::set<std::string> used_keys;
    std::string output_keys, output_names;  // every graph output as node:index and by name, for messages
    for (const std::string& output : graph_.outputs) {
      output_names += (output_names.empty() ? "" : ", ") + output;
      if (const Node* producer = graph_.producer(output); producer != nullptr)
        output_keys += (output_keys.empty() ? "" : ", ") + producer->name + ":" +
                       std::to_string(std::find(producer->outputs.begin(), producer->outputs.end(), output) -
                                      producer->outputs.begin());
    }
    for (const std::string& output : std::vector<std::string>(graph_.outputs)) {
      Node* producer = graph_.producer(output);
      if (producer == nullptr) continue;  // a graph input or weight passed straight through
      const std::size_t index =
          static_cast<std::size_t>(std::find(producer->outputs.begin(), producer->outputs.end(), output) - producer->outputs.begin());
      std::string requested = options_.output_type;
      std::vector<std::string> names = producer->provenance;  // the model's node names, after fusion too
      names.insert(names.begin(), producer->name);
      for (const std::string& name : names)
        if (const auto found = options_.output_type_per_output.find(name + ":" + std::to_string(index));
            found != options_.output_type_per_output.end()) {
          requested = found->second;
          used_keys.insert(found->first);
        }
      // The seed's "output:FP16" names the graph output value itself.
      if (const auto found = options_.output_type_per_output.find(output); found != options_.output_type_per_output.end()) {
        requested = found->second;
        used_keys.insert(found->first);
      }
      const DType host = host_dtype(output), device = device_dtype(output);
      const DType target = !requested.empty() ? output_type_dtype(requested) : is_floating(host) ? host : device;
      if (target == host && target == device) continue;
      // The producer now writes `staged`; a Cast turns it into the graph output.
      const std::string staged = graph_.unique_value_name(output + "_" + std::string(dtype_name(device)));
      for (Node* consumer : graph_.consumers(output))
        std::replace(consumer->inputs.begin(), consumer->inputs.end(), output, staged);
      producer->outputs[index] = staged;
      ValueInfo& info = graph_.values[output];
      graph_.values[staged] = ValueInfo{staged, host, info.shape};
      info.name = output;
      info.dtype = target;
      result_.device_dtypes[staged] = device;
      result_.device_dtypes[output] = target;
      add_cast(staged, output, target, device);
    }
    for (const auto& [key, type] : options_.output_type_per_output)
      if (used_keys.count(key) == 0)
        throw Error(ErrorCode::ConfigBadValue, "output_type entry '" + key + ":" + type +
                                                   "' names no graph output (node:index of the outputs: " + output_keys +
                                                   "; their names: " + output_names + ")");
  }

  void check_keep_dtype_entries() const {
    for (const std::string& entry : options_.keep_dtype_nodes)
      if (matched_keep_entries_.count(entry) == 0)
        throw Error(ErrorCode::ConfigBadValue, "keep_dtype entry '" + entry + "' matches no node of graph '" +
                                                   graph_.name + "' (give a node name or OpType::<type>)");
  }

  struct WeightUse {
    Node* node;
    std::size_t input;
    DType dtype;
  };

  Graph& graph_;
  const OpInfoTable& table_;
  const CompileOptions& options_;
  const std::map<std::string, ComputeUnit>& units_;
  PrecisionMode mode_;
  PrecisionResult result_;
  std::map<std::pair<std::string, DType>, std::string> casts_;
  std::map<std::string, std::vector<WeightUse>> weight_uses_;  // by initializer
  std::map<std::string, std::string> weight_of_;  // metadata-op outputs that are an initializer's data
  std::set<std::string> matched_keep_entries_;
};

}  // namespace

PrecisionMode parse_precision_mode(const std::string& text) {
  if (text.empty() || text == "force_fp16") return PrecisionMode::ForceFp16;
  if (text == "allow_fp32_to_fp16") return PrecisionMode::AllowFp32ToFp16;
  if (text == "must_keep_origin_dtype") return PrecisionMode::MustKeepOriginDtype;
  if (text == "allow_mix_precision" || text == "allow_mix_precision_fp16" || text == "mixed_float16")
    return PrecisionMode::AllowMixPrecision;
  if (text == "force_fp32" || text == "cube_fp16in_fp32out") return PrecisionMode::ForceFp32;
  throw Error(ErrorCode::ConfigBadValue,
              "precision_mode '" + text +
                  "' is not one of force_fp16, allow_fp32_to_fp16, must_keep_origin_dtype, allow_mix_precision "
                  "(allow_mix_precision_fp16, mixed_float16), force_fp32 (cube_fp16in_fp32out)");
}

PrecisionResult apply_precision(Graph& graph, const OpInfoTable& op_info, const CompileOptions& options,
                                const std::map<std::string, ComputeUnit>& units) {
  return PrecisionPass(graph, op_info, options, units).run();
}

Graph host_graph(Graph graph) {
  for (Node* node : graph.nodes()) {
    if (node->op_type != "Cast" || !node->domain.empty() || node->outputs.empty()) continue;
    const ValueInfo* output = graph.value_info(node->outputs[0]);
    // The model's own Casts (to int64, ...) agree with their outputs already.
    const std::optional<std::int64_t> host = output == nullptr ? std::nullopt : cast_code(output->dtype);
    if (host && node->attributes.get_int("to", *host) != *host) node->attributes.set("to", *host);
  }
  return graph;
}

}  // namespace asc::npusim
