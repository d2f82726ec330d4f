#include "test_support.hpp"

#include <doctest/doctest.h>

#include <asc/host/plugin_host.hpp>

namespace asc::test {

const Registry& plugin_registry() {
  static const std::unique_ptr<host::PluginHost> plugins = [] {
    auto host = std::make_unique<host::PluginHost>(std::vector<std::filesystem::path>{ASC_BUILD_PLUGIN_DIR});
    for (const char* name : {"ops_builtin.so", "backend_reference.so"})
      host->load_file(std::filesystem::path(ASC_BUILD_PLUGIN_DIR) / name);
    return host;
  }();
  return plugins->registry();
}

const Backend& reference_backend() {
  const Backend* backend = plugin_registry().backend("reference");
  REQUIRE(backend != nullptr);
  return *backend;
}

std::unique_ptr<Executable> compile_reference(const Graph& graph) {
  return reference_backend().compile(graph, plugin_registry().ops(), {});
}

Graph make_graph(std::initializer_list<ValueInfo> inputs, std::vector<std::string> outputs) {
  Graph graph;
  graph.name = "hand_built";
  graph.opset_imports[""] = 17;
  for (const ValueInfo& input : inputs) {
    graph.inputs.push_back(input.name);
    graph.values[input.name] = input;
  }
  graph.outputs = std::move(outputs);
  return graph;
}

ValueInfo tensor_info(const std::string& name, DType dtype, std::vector<Dim> dims) {
  return ValueInfo{name, dtype, std::move(dims)};
}

Node& add_node(Graph& graph, const std::string& name, const std::string& op_type,
               std::vector<std::string> inputs, std::vector<std::string> outputs) {
  Node node;
  node.name = name;
  node.op_type = op_type;
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  node.provenance = {name};
  return graph.add_node(std::move(node));
}

Tensor floats(Shape shape, std::vector<float> values) {
  return Tensor::from_vector(std::move(shape), values);
}

std::vector<float> values_of(const Tensor& tensor) {
  REQUIRE(tensor.dtype() == DType::Float32);
  const Tensor contiguous = tensor.contiguous();
  const auto span = contiguous.span<float>();
  return {span.begin(), span.end()};
}

Error error_from(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected an asc::Error");
  return Error(ErrorCode::Internal, "nothing thrown");
}

}  // namespace asc::test
