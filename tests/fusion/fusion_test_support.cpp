#include "fusion_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include <doctest/doctest.h>

#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>

namespace asc::fusion_test {

Registry& registry() {
  static const std::unique_ptr<host::PluginHost> host = [] {
    auto loaded = std::make_unique<host::PluginHost>(std::vector<std::filesystem::path>{ASC_BUILD_PLUGIN_DIR});
    for (const char* plugin : {"ops_builtin", "backend_reference", "fusion"})
      loaded->load_file(std::filesystem::path(ASC_BUILD_PLUGIN_DIR) / (std::string(plugin) + ".so"));
    return loaded;
  }();
  return host->registry();
}

PassResult run_pass(Graph& graph, const std::string& pass_name) {
  const Pass* pass = registry().pass(pass_name);
  REQUIRE_MESSAGE(pass != nullptr, "pass " << pass_name << " is not registered");
  return pass->run(graph, PassContext{registry().ops()});
}

Attributes attrs(std::initializer_list<std::pair<std::string, AttributeValue>> values) {
  Attributes attributes;
  for (const auto& [name, value] : values) attributes.set(name, value);
  return attributes;
}

Tensor random_tensor(Shape shape, unsigned seed, float low, float high) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(low, high);
  std::vector<float> values(static_cast<std::size_t>(num_elements(shape)));
  for (float& v : values) v = distribution(generator);
  return Tensor::from_vector<float>(std::move(shape), values);
}

TensorMap random_inputs(const Graph& graph, unsigned seed) {
  TensorMap inputs;
  for (const auto& name : graph.inputs) {
    Shape shape;
    for (const Dim& d : *graph.value_info(name)->shape) shape.push_back(d.is_static() ? d.value : 2);
    inputs[name] = random_tensor(shape, seed++);
  }
  return inputs;
}

TensorMap run_reference(const Graph& graph, const TensorMap& inputs) {
  const Backend* backend = registry().backend("reference");
  REQUIRE(backend != nullptr);
  return backend->compile(graph, registry().ops(), {})->execute(inputs, {});
}

double check_same_outputs(const Graph& unfused, const Graph& fused, double tolerance, unsigned seed) {
  const TensorMap inputs = random_inputs(unfused, seed);
  const TensorMap expected = run_reference(unfused, inputs);
  const TensorMap actual = run_reference(fused, inputs);
  double worst = 0;
  for (const auto& name : unfused.outputs) {
    const std::vector<double> a = expected.at(name).to_doubles();
    const std::vector<double> b = actual.at(name).to_doubles();
    REQUIRE(expected.at(name).shape() == actual.at(name).shape());
    double scale = 1.0;
    for (const double v : a) scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
    CHECK_MESSAGE(worst <= tolerance * scale, "output " << name << " differs by " << worst);
  }
  return worst;
}

ErrorCode error_code_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.code();
  }
  FAIL("expected an asc::Error");
  return ErrorCode::Internal;
}

std::size_t count_ops(const Graph& graph, const std::string& op_type, const std::string& domain) {
  return static_cast<std::size_t>(std::count_if(graph.nodes().begin(), graph.nodes().end(), [&](const Node* node) {
    return node->op_type == op_type && node->domain == domain;
  }));
}

const Node* only_node(const Graph& graph, const std::string& op_type, const std::string& domain) {
  const Node* found = nullptr;
  for (const Node* node : graph.nodes()) {
    if (node->op_type != op_type || node->domain != domain) continue;
    REQUIRE_MESSAGE(found == nullptr, "more than one " << op_type << " node");
    found = node;
  }
  REQUIRE_MESSAGE(found != nullptr, "no " << op_type << " node");
  return found;
}

GraphBuilder::GraphBuilder(std::int64_t opset) {
  graph_.name = "test";
  graph_.opset_imports[""] = opset;
}

std::string GraphBuilder::input(const std::string& name, std::vector<Dim> dims, DType dtype) {
  graph_.inputs.push_back(name);
  graph_.values[name] = ValueInfo{name, dtype, std::move(dims)};
  return name;
}

std::string GraphBuilder::constant(const std::string& name, Tensor value) {
  graph_.values[name] = ValueInfo::from_shape(name, value.dtype(), value.shape());
  graph_.initializers[name] = std::move(value);
  return name;
}

std::string GraphBuilder::op(const std::string& op_type, std::vector<std::string> inputs, Attributes attributes,
                             std::string name, std::size_t outputs, std::string domain) {
  if (name.empty()) name = op_type + "_" + std::to_string(counter_++);
  Node node{name, op_type, std::move(domain), std::move(attributes), std::move(inputs), {}, {name}};
  for (std::size_t i = 0; i < outputs; ++i) node.outputs.push_back(name + "_out" + std::to_string(i));
  return graph_.add_node(std::move(node)).outputs.front();
}

Graph GraphBuilder::finish() {
  for (const Node* node : graph_.nodes()) {
    const OpDefinition* definition = find_op(registry().ops(), graph_, *node);
    REQUIRE_MESSAGE(definition != nullptr, node->describe() << " has no definition");
    std::vector<const ValueInfo*> inputs;
    std::vector<const Tensor*> values;
    for (const auto& input : node->inputs) {
      inputs.push_back(input.empty() ? nullptr : graph_.value_info(input));
      const auto init = graph_.initializers.find(input);
      values.push_back(init == graph_.initializers.end() ? nullptr : &init->second);
    }
    std::vector<ValueInfo> outputs;
    for (const auto& output : node->outputs) outputs.push_back(ValueInfo{output, DType::Undefined, std::nullopt});
    InferenceContext context{*node, graph_.opset(node->domain), inputs, values, std::move(outputs)};
    definition->infer(context);
    for (auto& info : context.outputs) graph_.values[info.name] = info;
  }
  return graph_;
}

}  // namespace asc::fusion_test
