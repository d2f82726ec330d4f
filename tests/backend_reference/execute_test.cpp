// Hand-built graphs on the reference backend, against hand-computed results.
#include <doctest/doctest.h>

#include <asc/sdk/backend.hpp>

#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

// y = MatMul(Relu(Add(x, bias)), w) with bias and w initializers.
Graph add_relu_matmul() {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {2, 3})}, {"y"});
  graph.initializers["bias"] = floats({3}, {0.5f, 0.5f, -1.0f});
  graph.initializers["w"] = floats({3, 2}, {1, 2, 3, 4, 5, 6});
  add_node(graph, "add", "Add", {"x", "bias"}, {"sum"});
  add_node(graph, "relu", "Relu", {"sum"}, {"activated"});
  add_node(graph, "matmul", "MatMul", {"activated", "w"}, {"y"});
  return graph;
}

const Tensor kX = floats({2, 3}, {1, -2, 3, -4, 5, -6});

}  // namespace

TEST_CASE("Add -> Relu -> MatMul with initializers gives the hand-computed result") {
  const auto executable = compile_reference(add_relu_matmul());
  // sum = [[1.5,-1.5,2],[-3.5,5.5,-7]], relu = [[1.5,0,2],[0,5.5,0]],
  // y = [[1.5*1 + 2*5, 1.5*2 + 2*6], [5.5*3, 5.5*4]].
  const TensorMap outputs = executable->execute({{"x", kX}}, RunOptions{});
  REQUIRE(outputs.size() == 1);
  CHECK(outputs.at("y").shape() == Shape{2, 2});
  CHECK(values_of(outputs.at("y")) == std::vector<float>{11.5f, 15.0f, 16.5f, 22.0f});
}

TEST_CASE("input and output infos are the graph's") {
  const auto executable = compile_reference(add_relu_matmul());
  REQUIRE(executable->input_infos().size() == 1);
  CHECK(to_string(executable->input_infos()[0]) == "float32[2,3]");
  REQUIRE(executable->output_infos().size() == 1);
  CHECK(executable->output_infos()[0].name == "y");
}

TEST_CASE("a diamond keeps values alive for every reader and keeps consumed graph outputs") {
  // a = Relu(x) is read by two nodes and is a graph output; x is read by two nodes.
  Graph graph = make_graph({tensor_info("x", DType::Float32, {4})}, {"d", "a"});
  add_node(graph, "relu", "Relu", {"x"}, {"a"});
  add_node(graph, "square", "Mul", {"a", "a"}, {"b"});
  add_node(graph, "shift", "Add", {"a", "x"}, {"c"});
  add_node(graph, "join", "Sub", {"b", "c"}, {"d"});
  const auto executable = compile_reference(graph);
  const Tensor x = floats({4}, {-2, -1, 1, 3});
  // a = [0,0,1,3], b = [0,0,1,9], c = [-2,-1,2,6], d = [2,1,-1,3].
  for (int run = 0; run < 2; ++run) {  // a second run starts from a clean slate
    const TensorMap outputs = executable->execute({{"x", x}}, RunOptions{});
    CHECK(values_of(outputs.at("d")) == std::vector<float>{2, 1, -1, 3});
    CHECK(values_of(outputs.at("a")) == std::vector<float>{0, 0, 1, 3});
  }
  CHECK(values_of(x) == std::vector<float>{-2, -1, 1, 3});  // the caller's input is untouched
}

TEST_CASE("a graph output that is a graph input or an initializer is returned as is") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {2})}, {"x", "k", "y"});
  graph.initializers["k"] = floats({1}, {7});
  add_node(graph, "relu", "Relu", {"x"}, {"y"});
  const TensorMap outputs = compile_reference(graph)->execute({{"x", floats({2}, {-1, 2})}}, RunOptions{});
  CHECK(values_of(outputs.at("x")) == std::vector<float>{-1, 2});
  CHECK(values_of(outputs.at("k")) == std::vector<float>{7});
  CHECK(values_of(outputs.at("y")) == std::vector<float>{0, 2});
}

TEST_CASE("symbolic dimensions take their size at run time") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {Dim::symbolic("batch"), 2})}, {"y"});
  add_node(graph, "relu", "Relu", {"x"}, {"y"});
  const auto executable = compile_reference(graph);
  CHECK(executable->execute({{"x", floats({1, 2}, {-1, 1})}}, RunOptions{}).at("y").shape() == Shape{1, 2});
  const Tensor y = executable->execute({{"x", floats({3, 2}, {-1, 1, -2, 2, -3, 3})}}, RunOptions{}).at("y");
  CHECK(y.shape() == Shape{3, 2});
  CHECK(values_of(y) == std::vector<float>{0, 1, 0, 2, 0, 3});
}

TEST_CASE("a non-contiguous input is made contiguous before kernels see it") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {2, 2})}, {"y"});
  add_node(graph, "relu", "Relu", {"x"}, {"y"});
  // The transpose of [[1,-2],[-3,4]] as a strided view: [[1,-3],[-2,4]].
  const Tensor base = floats({2, 2}, {1, -2, -3, 4});
  const Tensor transposed(base.buffer(), 0, DType::Float32, {2, 2}, {1, 2});
  REQUIRE_FALSE(transposed.is_contiguous());
  const Tensor y = compile_reference(graph)->execute({{"x", transposed}}, RunOptions{}).at("y");
  CHECK(values_of(y) == std::vector<float>{1, 0, 0, 4});
}

TEST_CASE("execute_async on a stream gives what execute gives") {
  const auto executable = compile_reference(add_relu_matmul());
  const TensorMap expected = executable->execute({{"x", kX}}, RunOptions{});
  const std::unique_ptr<Stream> stream = reference_backend().create_stream();
  TensorMap first, second;
  executable->execute_async(*stream, {{"x", kX}}, &first, RunOptions{});
  executable->execute_async(*stream, {{"x", floats({2, 3}, {0, 0, 0, 0, 0, 0})}}, &second, RunOptions{});
  stream->synchronize();
  CHECK(values_of(first.at("y")) == values_of(expected.at("y")));
  // x = 0: relu(bias) = [.5,.5,0] on both rows, times w: [.5+1.5, 1+2].
  CHECK(values_of(second.at("y")) == std::vector<float>{2, 3, 2, 3});
}
