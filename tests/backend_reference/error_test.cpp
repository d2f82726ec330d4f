// The reference backend's errors: inputs, unsupported operators, kernel failures, bad graphs.
#include <doctest/doctest.h>

#include <asc/sdk/backend.hpp>
#include <climits>
#include <stdexcept>

#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Graph relu_graph(std::vector<Dim> dims) {
  Graph graph = make_graph({tensor_info("pixels", DType::Float32, std::move(dims))}, {"y"});
  add_node(graph, "relu", "Relu", {"pixels"}, {"y"});
  return graph;
}

// An operator registry with one kernel per misbehaviour.
OpRegistry misbehaving_ops() {
  OpRegistry ops;
  auto add = [&](const std::string& type, KernelFunction compute) {
    ops.add(OpDefinition{"", type, 1, INT_MAX, {}, std::move(compute), {}, "test"});
  };
  add("ThrowsStd", [](KernelContext&) { throw std::runtime_error("boom"); });
  add("ThrowsAsc",
      [](KernelContext&) { throw Error(ErrorCode::InvalidOperator, "attribute 'k' is negative"); });
  add("ThrowsAscNamed", [](KernelContext& context) {
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": attribute 'k' is negative");
  });
  add("ForgetsOutput", [](KernelContext& context) { context.outputs[0] = context.input(0); });
  add("InferenceOnly", {});
  return ops;
}

Error run_error(const std::string& op_type, std::vector<std::string> outputs = {"y"}) {
  static const OpRegistry ops = misbehaving_ops();
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1})}, {outputs[0]});
  add_node(graph, "culprit", op_type, {"x"}, std::move(outputs));
  return error_from([&] {
    reference_backend().compile(graph, ops, {})->execute({{"x", floats({1}, {1})}}, RunOptions{});
  });
}

}  // namespace

TEST_CASE("a missing input is EE8002 naming it") {
  const Error error = error_from([] { compile_reference(relu_graph({2}))->execute({}, RunOptions{}); });
  CHECK(error.code() == ErrorCode::InputMissing);
  CHECK(contains(error.message(), "'pixels'"));
}

TEST_CASE("an input of the wrong dtype, rank or size is EE8003 naming it") {
  const auto executable = compile_reference(relu_graph({2, 3}));
  const auto message_for = [&](const Tensor& tensor) {
    const Error error = error_from([&] { executable->execute({{"pixels", tensor}}, RunOptions{}); });
    CHECK(error.code() == ErrorCode::InputMismatch);
    CHECK(contains(error.message(), "'pixels'"));
    return error.message();
  };
  CHECK(contains(message_for(Tensor(DType::Int32, {2, 3})), "dtype int32"));
  CHECK(contains(message_for(Tensor(DType::Float32, {6})), "rank 1"));
  CHECK(contains(message_for(Tensor(DType::Float32, {2, 4})), "dimension 1 is 4"));
}

TEST_CASE("one symbolic dimension bound to two sizes is EE8003") {
  const Dim n = Dim::symbolic("n");
  Graph graph =
      make_graph({tensor_info("a", DType::Float32, {n}), tensor_info("b", DType::Float32, {n})}, {"c"});
  add_node(graph, "add", "Add", {"a", "b"}, {"c"});
  const Error error = error_from([&] {
    compile_reference(graph)->execute(
        {{"a", Tensor(DType::Float32, {2})}, {"b", Tensor(DType::Float32, {3})}}, RunOptions{});
  });
  CHECK(error.code() == ErrorCode::InputMismatch);
  CHECK(contains(error.message(), "'b'"));
  CHECK(contains(error.message(), "'n'"));
}

TEST_CASE("a tensor for a name that is not a graph input is EE8003") {
  const Error error = error_from([] {
    compile_reference(relu_graph({1}))
        ->execute({{"pixels", Tensor(DType::Float32, {1})}, {"pixel", Tensor()}}, RunOptions{});
  });
  CHECK(error.code() == ErrorCode::InputMismatch);
  CHECK(contains(error.message(), "'pixel'"));
}

TEST_CASE("compile lists every node without a kernel in one EE2001") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1})}, {"z"});
  add_node(graph, "first_mystery", "FrobnicateA", {"x"}, {"y"});
  add_node(graph, "fine", "Relu", {"y"}, {"r"});
  add_node(graph, "second_mystery", "FrobnicateB", {"r"}, {"z"});
  const Error error = error_from([&] { compile_reference(graph); });
  CHECK(error.code() == ErrorCode::UnsupportedOperator);
  CHECK(contains(error.message(), "first_mystery"));
  CHECK(contains(error.message(), "second_mystery"));
  CHECK_FALSE(contains(error.message(), "'fine'"));
}

TEST_CASE("a definition without a kernel is EE2001 at compile time") {
  const Error error = run_error("InferenceOnly");
  CHECK(error.code() == ErrorCode::UnsupportedOperator);
  CHECK(contains(error.message(), "'culprit'"));
}

TEST_CASE("kernel failures name the node") {
  SUBCASE("another exception becomes EE8001") {
    const Error error = run_error("ThrowsStd");
    CHECK(error.code() == ErrorCode::ExecutionFailed);
    CHECK(contains(error.message(), "node 'culprit' (ThrowsStd)"));
    CHECK(contains(error.message(), "boom"));
  }
  SUBCASE("an asc::Error keeps its code and gets the node prefixed") {
    const Error error = run_error("ThrowsAsc");
    CHECK(error.code() == ErrorCode::InvalidOperator);
    CHECK(error.message() == "node 'culprit' (ThrowsAsc): attribute 'k' is negative");
  }
  SUBCASE("an asc::Error that already names the node is passed on unchanged") {
    const Error error = run_error("ThrowsAscNamed");
    CHECK(error.message() == "node 'culprit' (ThrowsAscNamed): attribute 'k' is negative");
  }
  SUBCASE("a declared output the kernel did not set is EE8001 naming it") {
    const Error error = run_error("ForgetsOutput", {"y", "second"});
    CHECK(error.code() == ErrorCode::ExecutionFailed);
    CHECK(contains(error.message(), "'culprit'"));
    CHECK(contains(error.message(), "'second'"));
  }
}

TEST_CASE("a graph reading a value nothing provides is refused at compile time") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1})}, {"y"});
  add_node(graph, "relu", "Relu", {"nowhere"}, {"y"});
  const Error error = error_from([&] { compile_reference(graph); });
  CHECK(error.code() == ErrorCode::ModelCheckFailed);
  CHECK(contains(error.message(), "'nowhere'"));
}

TEST_CASE("backend options are refused but soc_version: host results do not depend on the device") {
  const Error error = error_from([] {
    reference_backend().compile(relu_graph({1}), plugin_registry().ops(), {{"precision_mode", "force_fp16"}});
  });
  CHECK(error.code() == ErrorCode::ConfigUnknownKey);
  CHECK(contains(error.message(), "precision_mode"));
  // ais_bench --backend reference passes the SoC an .om was compiled for.
  CHECK(reference_backend().compile(relu_graph({1}), plugin_registry().ops(), {{"soc_version", "Ascend310P3"}}) != nullptr);
}
