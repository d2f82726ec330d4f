// SDK 0.5's layout and kept-state facts of the execution plan: which outputs may stay
// channels-last, which inputs are constants, one KernelState per step; and store_outputs keeping
// exactly the permitted channels-last outputs, so an operator that declares nothing still sees
// contiguous inputs. Operators here are stand-ins registered for the test.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "asc/sdk/backend/execution_plan.hpp"
#include "asc/sdk/graph.hpp"

namespace {

asc::Node node(std::string name, std::string op, std::vector<std::string> inputs, std::vector<std::string> outputs) {
  asc::Node n;
  n.name = std::move(name);
  n.op_type = std::move(op);
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  return n;
}

// "Producer" writes its input's values channels-last whenever it may; "Keep" takes any layout
// and keeps it; "Plain" declares nothing and records whether its input was contiguous.
bool plain_saw_contiguous = false;

void produce(asc::KernelContext& context) {
  const asc::Tensor& x = context.input(0);
  context.outputs[0] = context.may_output_channels_last(0) ? x.channels_last() : x.contiguous();
}

asc::OpRegistry stand_in_ops() {
  asc::OpRegistry ops;
  auto add = [&](const char* type, asc::KernelFunction compute, asc::InputMask channels_last) {
    asc::OpDefinition definition{"", type, 1, 100, nullptr, std::move(compute), nullptr, "test", {}, channels_last};
    ops.add(std::move(definition));
  };
  add("Producer", produce, asc::kChannelsLastInput0);
  add("Keep", [](asc::KernelContext& context) { context.outputs[0] = context.input(0); }, asc::kChannelsLastAllInputs);
  add("Plain", [](asc::KernelContext& context) {
    plain_saw_contiguous = context.input(0).is_contiguous();
    context.outputs[0] = context.input(0).contiguous();
  }, 0);
  return ops;
}

// A graph with input x, constant w and outputs y and z, for the test to add its nodes to.
asc::Graph graph_of_x_w_y_z(std::string name) {
  asc::Graph graph;
  graph.name = std::move(name);
  graph.opset_imports[""] = 17;
  graph.inputs = {"x"};
  graph.outputs = {"y", "z"};
  graph.initializers["w"] = asc::Tensor(asc::DType::Float32, {1});
  return graph;
}

// x -> Producer(w) -> a -> Keep -> b -> Plain -> y ;  a -> Producer -> z (a graph output)
asc::Graph layout_graph() {
  asc::Graph graph = graph_of_x_w_y_z("layouts");
  graph.add_node(node("p1", "Producer", {"x", "w"}, {"a"}));
  graph.add_node(node("k", "Keep", {"a"}, {"b"}));
  graph.add_node(node("plain", "Plain", {"b"}, {"y"}));
  graph.add_node(node("p2", "Producer", {"a"}, {"z"}));
  return graph;
}

}  // namespace

TEST_CASE("the plan lets a value stay channels-last only when every reader takes it and no graph output is it") {
  const asc::OpRegistry ops = stand_in_ops();
  const asc::Graph graph = layout_graph();
  const asc::ExecutionPlan plan = asc::build_execution_plan(graph, ops);
  REQUIRE(plan.steps.size() == 4);
  CHECK(plan.steps[0].channels_last_outputs == std::vector<bool>{true});   // a: read by Keep and Producer
  CHECK(plan.steps[1].channels_last_outputs == std::vector<bool>{false});  // b: read by Plain
  CHECK(plan.steps[2].channels_last_outputs == std::vector<bool>{false});  // y: a graph output
  CHECK(plan.steps[3].channels_last_outputs == std::vector<bool>{false});  // z: a graph output
  CHECK(plan.steps[0].constant_inputs == std::vector<bool>{false, true});
  for (const asc::PlanStep& step : plan.steps) CHECK(step.state != nullptr);
  CHECK(plan.steps[0].state != plan.steps[1].state);
}

TEST_CASE("store_outputs keeps permitted channels-last outputs; undeclared readers see contiguous input") {
  const asc::OpRegistry ops = stand_in_ops();
  const asc::Graph graph = layout_graph();
  const asc::ExecutionPlan plan = asc::build_execution_plan(graph, ops);
  std::vector<float> values(2 * 3 * 2 * 2);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  const asc::Tensor x = asc::Tensor::from_vector<float>({2, 3, 2, 2}, values);
  std::vector<asc::Tensor> slots = plan.initial_values;
  slots[static_cast<std::size_t>(plan.input_slots[0])] = x;
  plain_saw_contiguous = false;
  for (const asc::PlanStep& step : plan.steps) {
    asc::KernelContext context = asc::make_context(step, slots, 1);
    CHECK(context.state == step.state.get());
    asc::run_kernel(step, context);
    asc::store_outputs(step, context.outputs, slots);
    if (step.node->name == "p1") {
      const asc::Tensor& a = slots[static_cast<std::size_t>(step.output_slots[0])];
      CHECK(a.is_channels_last());
      CHECK_FALSE(a.is_contiguous());
    }
  }
  CHECK(plain_saw_contiguous);
  const std::map<std::string, asc::Tensor> outputs = asc::collect_outputs(plan, graph, slots);
  for (const char* name : {"y", "z"}) {
    CAPTURE(name);
    const asc::Tensor& out = outputs.at(name);
    CHECK(out.is_contiguous());
    CHECK(out.to_doubles() == x.to_doubles());
  }
}

TEST_CASE("channels_last_strides, is_channels_last and Tensor::channels_last") {
  CHECK(asc::channels_last_strides({2, 3, 4, 5}) == asc::Shape{60, 1, 15, 3});
  CHECK(asc::channels_last_strides({2, 3, 4, 5, 6}) == asc::Shape{360, 1, 90, 18, 3});
  CHECK(asc::channels_last_strides({2, 3}) == asc::Shape{3, 1});  // below rank 3: contiguous
  std::vector<float> values(24);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  const asc::Tensor x = asc::Tensor::from_vector<float>({1, 2, 3, 4}, values);
  const asc::Tensor nhwc = x.channels_last();
  CHECK(nhwc.is_channels_last());
  CHECK_FALSE(nhwc.is_contiguous());
  CHECK(nhwc.to_doubles() == x.to_doubles());  // same shape and values
  // In memory: N, H, W, C: element (c, h, w) at (h * 4 + w) * 2 + c.
  const float* memory = nhwc.data<float>();
  CHECK(memory[0] == 0.0f);   // (0, 0, 0)
  CHECK(memory[1] == 12.0f);  // (1, 0, 0)
  CHECK(memory[2] == 1.0f);   // (0, 0, 1)
  CHECK(nhwc.channels_last().data<float>() == memory);  // already channels-last: itself
  CHECK(nhwc.contiguous().to_doubles() == x.to_doubles());
  // A single channel is both layouts at once.
  CHECK(asc::Tensor(asc::DType::Float32, {2, 1, 3, 3}).is_channels_last());
}

// SDK 0.8: which inputs a step's kernel may overwrite (PlanStep::reusable_inputs, and
// KernelContext::input_is_reusable at the call).
TEST_CASE("the plan gives a value up at its last reader, never a graph input, output, constant or twice-read input") {
  const asc::OpRegistry ops = stand_in_ops();
  asc::Graph graph = graph_of_x_w_y_z("reuse");
  graph.add_node(node("p1", "Producer", {"x", "w"}, {"a"}));  // x: graph input; w: constant
  graph.add_node(node("k1", "Keep", {"a"}, {"b"}));            // a: read again by k3
  graph.add_node(node("k2", "Keep", {"b", "b"}, {"c"}));       // b: read twice by its last reader
  graph.add_node(node("k3", "Keep", {"a", "c"}, {"y"}));       // a, c: last reader
  graph.add_node(node("k4", "Keep", {"y"}, {"z"}));            // y: a graph output
  const asc::ExecutionPlan plan = asc::build_execution_plan(graph, ops);
  REQUIRE(plan.steps.size() == 5);
  CHECK(plan.steps[0].reusable_inputs == std::vector<bool>{false, false});
  CHECK(plan.steps[1].reusable_inputs == std::vector<bool>{false});
  CHECK(plan.steps[2].reusable_inputs == std::vector<bool>{false, false});
  CHECK(plan.steps[3].reusable_inputs == std::vector<bool>{true, true});
  CHECK(plan.steps[4].reusable_inputs == std::vector<bool>{false});

  // At the call: the caller gives the value up, the SDK allocated its buffer, no one else holds it.
  std::vector<asc::Tensor> slots = plan.initial_values;
  const auto a = static_cast<std::size_t>(plan.steps[3].input_slots[0]);
  const auto c = static_cast<std::size_t>(plan.steps[3].input_slots[1]);
  slots[a] = asc::Tensor(asc::DType::Float32, {4});
  slots[c] = asc::Tensor(asc::DType::Float32, {4});
  {
    const asc::KernelContext context = asc::make_context(plan.steps[3], slots, 1);
    CHECK(context.reusable_inputs == plan.steps[3].reusable_inputs);
    CHECK(context.input_is_reusable(0));
    CHECK(context.input_is_reusable(1));
  }
  const asc::Tensor view_of_a = slots[a];  // someone else holds a's buffer
  auto borrowed = std::make_shared<std::vector<float>>(4);
  slots[c] = asc::Tensor(asc::Buffer::wrap(borrowed, reinterpret_cast<std::byte*>(borrowed->data()), 16), 0,
                         asc::DType::Float32, {4}, {1});
  const asc::KernelContext context = asc::make_context(plan.steps[3], slots, 1);
  CHECK_FALSE(context.input_is_reusable(0));
  CHECK_FALSE(context.input_is_reusable(1));  // borrowed memory
  CHECK_FALSE(context.input_is_reusable(2));  // no such input
}
