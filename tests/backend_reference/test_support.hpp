// Shared by the reference backend tests: the plugins loaded through the host's PluginHost, and
// small builders for hand-made graphs.
#pragma once

#include <asc/sdk/backend.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/graph.hpp>
#include <asc/sdk/registry.hpp>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace asc::test {

// ops_builtin and backend_reference from the build's plugin directory, loaded once per process.
const Registry& plugin_registry();
const Backend& reference_backend();
// Compiles with the built-in operators.
std::unique_ptr<Executable> compile_reference(const Graph& graph);

// A graph at opset 17 with the given inputs (declared as values).
Graph make_graph(std::initializer_list<ValueInfo> inputs, std::vector<std::string> outputs);
ValueInfo tensor_info(const std::string& name, DType dtype, std::vector<Dim> dims);
// Adds a node whose provenance is its own name, as the parser sets it.
Node& add_node(Graph& graph, const std::string& name, const std::string& op_type,
               std::vector<std::string> inputs, std::vector<std::string> outputs);

Tensor floats(Shape shape, std::vector<float> values);
std::vector<float> values_of(const Tensor& tensor);

// Runs `action`, which must throw asc::Error; returns it (a default error when nothing was thrown,
// after failing the test).
Error error_from(const std::function<void()>& action);

}  // namespace asc::test
