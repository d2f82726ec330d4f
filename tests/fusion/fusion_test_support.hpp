// Shared by the fusion tests: the plugins (ops_builtin, backend_reference, fusion) loaded through
// the host, a builder for hand-made graphs whose value types come from the registered inference
// functions (as the parser's would), and runners that compare a graph's reference outputs before
// and after rewriting.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <asc/sdk/backend.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/graph.hpp>
#include <asc/sdk/pass.hpp>
#include <asc/sdk/registry.hpp>

namespace asc::fusion_test {

Registry& registry();
PassResult run_pass(Graph& graph, const std::string& pass_name);

Attributes attrs(std::initializer_list<std::pair<std::string, AttributeValue>> values);
Tensor random_tensor(Shape shape, unsigned seed, float low = -1.0f, float high = 1.0f);
// One random float tensor per graph input (its type's shape, symbolic dims set to 2).
TensorMap random_inputs(const Graph& graph, unsigned seed);
TensorMap run_reference(const Graph& graph, const TensorMap& inputs);
// Runs both graphs on the same random inputs and checks every output agrees within
// tolerance·max(1, max|unfused|); returns the largest absolute difference.
double check_same_outputs(const Graph& unfused, const Graph& fused, double tolerance = 1e-5, unsigned seed = 7);

// The code of the asc::Error `action` throws (fails the test when it throws nothing else).
ErrorCode error_code_of(const std::function<void()>& action);

std::size_t count_ops(const Graph& graph, const std::string& op_type, const std::string& domain = "");
const Node* only_node(const Graph& graph, const std::string& op_type, const std::string& domain = "");

class GraphBuilder {
 public:
  explicit GraphBuilder(std::int64_t opset = 13);
  std::string input(const std::string& name, std::vector<Dim> dims, DType dtype = DType::Float32);
  std::string constant(const std::string& name, Tensor value);
  // A node with `outputs` outputs named "<name>_out<i>" (the first one returned); provenance is
  // its own name, as the parser sets it.
  std::string op(const std::string& op_type, std::vector<std::string> inputs, Attributes attributes = {},
                 std::string name = "", std::size_t outputs = 1, std::string domain = "");
  void output(const std::string& value) { graph_.outputs.push_back(value); }
  // Types every node output with the registered inference functions and returns the graph.
  Graph finish();

 private:
  Graph graph_;
  int counter_ = 0;
};

}  // namespace asc::fusion_test
