// Streams with a simulated device clock: N iterations of copy-in / run / copy-out, synchronised
// one by one or overlapped on two streams, against the schedule worked out by hand from the
// copy times (bytes / PCIe bandwidth) and the run's device time.
#include <doctest/doctest.h>

#include "npusim_backend.hpp"
#include "npusim_stream.hpp"
#include "npusim_support.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;
using asc::npusim::NpusimStream;

namespace {

constexpr int kIterations = 6;

// x[rows, cols] -> MatMul with w1[cols, hidden] -> MatMul with w2[hidden, cols]: compute grows
// with `hidden`, the copies only with rows x cols.
Graph two_matmuls(std::int64_t rows, std::int64_t cols, std::int64_t hidden) {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {rows, cols})}, {"y"});
  graph.initializers["w1"] = floats({cols, hidden}, std::vector<float>(static_cast<std::size_t>(cols * hidden), 0.01f));
  graph.initializers["w2"] = floats({hidden, cols}, std::vector<float>(static_cast<std::size_t>(hidden * cols), 0.01f));
  add_node(graph, "mm1", "MatMul", {"x", "w1"}, {"h"});
  add_node(graph, "mm2", "MatMul", {"h", "w2"}, {"y"});
  return graph;
}

// A large input reduced to one number: the copy in dominates.
Graph total_sum(std::int64_t rows, std::int64_t cols) {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {rows, cols})}, {"y"});
  add_node(graph, "sum", "ReduceSum", {"x"}, {"y"}).attributes.set("keepdims", std::int64_t{0});
  return graph;
}

struct Times {
  double h2d = 0, run = 0, d2h = 0;
};

// The hand-side inputs: copy times from the bytes and the SoC's link, the run's device time from
// a synchronous execute (the sum of its tasks).
Times times_of(Executable& executable, const npusim::SocConfig& s, const Tensor& x) {
  EventCollector events;
  RunOptions options;
  options.profile_sink = &events;
  const TensorMap outputs = executable.execute({{"x", x}}, options);
  Times t;
  for (const ProfileEvent& event : events.events) t.run = std::max(t.run, event.start_us + event.duration_us);
  const double link = s.pcie_bandwidth_gbs * 1e3;  // bytes per us
  t.h2d = static_cast<double>(x.numel() * 4) / link;
  t.d2h = static_cast<double>(outputs.at("y").numel() * 4) / link;
  return t;
}

Tensor input(std::int64_t rows, std::int64_t cols) {
  return floats({rows, cols}, std::vector<float>(static_cast<std::size_t>(rows * cols), 1.0f));
}

}  // namespace

TEST_CASE("synchronising every iteration serialises copy-in, run and copy-out") {
  const Graph graph = two_matmuls(64, 64, 4096);
  auto executable = compile_npusim(graph, "Ascend310P3");
  const Times t = times_of(*executable, soc("Ascend310P3"), input(64, 64));
  REQUIRE(t.run > 0);

  auto stream = npusim::NpusimBackend().create_stream();
  auto& simulated = dynamic_cast<NpusimStream&>(*stream);
  std::vector<TensorMap> outputs(kIterations);
  for (int i = 0; i < kIterations; ++i) {
    executable->execute_async(*stream, {{"x", input(64, 64)}}, &outputs[static_cast<std::size_t>(i)], RunOptions{});
    stream->synchronize();
  }
  const double expected = kIterations * (t.h2d + t.run + t.d2h);
  CHECK(simulated.device().host_time_us() == doctest::Approx(expected));
  CHECK(simulated.completion_us() == doctest::Approx(expected));
  CHECK(outputs.back().at("y").numel() == 64 * 64);
}

// Two streams, iterations alternating. Iteration i's copy-in waits for the link and for its own
// stream's iteration i-2; when h2d + d2h <= run, the runs go back to back after the first
// copy-in: total = h2d + N * run + d2h.
TEST_CASE("two streams overlap the copies with the runs: compute-bound total h2d + N*run + d2h") {
  const Graph graph = two_matmuls(64, 64, 4096);
  auto executable = compile_npusim(graph, "Ascend310P3");
  const Times t = times_of(*executable, soc("Ascend310P3"), input(64, 64));
  REQUIRE(t.h2d + t.d2h <= t.run);

  npusim::NpusimBackend backend;
  auto first = backend.create_stream();
  auto second = backend.create_stream();
  auto& a = dynamic_cast<NpusimStream&>(*first);
  auto& b = dynamic_cast<NpusimStream&>(*second);
  REQUIRE(&a.device() == &b.device());
  std::vector<TensorMap> outputs(kIterations);
  EventCollector events;
  RunOptions options;
  options.profile_sink = &events;
  for (int i = 0; i < kIterations; ++i)
    executable->execute_async(i % 2 == 0 ? *first : *second, {{"x", input(64, 64)}},
                              &outputs[static_cast<std::size_t>(i)], options);
  first->synchronize();
  second->synchronize();

  const double expected = t.h2d + kIterations * t.run + t.d2h;
  CHECK(a.device().host_time_us() == doctest::Approx(expected));
  const double serial = kIterations * (t.h2d + t.run + t.d2h);
  MESSAGE("compute-bound: " << kIterations << " iterations take " << expected << " us overlapped, " << serial
                            << " us serialised");

  // The runs' tasks reach the sink on the device timeline, tagged with their stream. Per run:
  // the H2D copy (MEMCPY_ASYNC), the input Cast to fp16, the two MatMuls, the output Cast back to
  // fp32, the D2H copy.
  constexpr std::size_t kTasks = 6;
  REQUIRE(events.events.size() == kTasks * kIterations);
  CHECK(events.events[0].task_type == "MEMCPY_ASYNC");
  CHECK(events.events[0].stream_id == a.id());
  CHECK(events.events[kTasks].stream_id == b.id());
  CHECK(events.events[kTasks].start_us == doctest::Approx(t.h2d));  // iteration 1's copy in
  CHECK(events.events[kTasks + 1].start_us == doctest::Approx(t.h2d + t.run));  // its first kernel
  const std::vector<npusim::TimelineEntry> timeline = a.device().timeline();
  REQUIRE(timeline.size() == 3 * kIterations);
  CHECK(timeline[4].engine == npusim::DeviceEngine::Compute);
  CHECK(timeline[4].start_us == doctest::Approx(t.h2d + t.run));
}

// When the copy in is the longest step (h2d >= run + d2h) the link is the bottleneck: every
// copy-in follows the previous one, and the last run and copy-out trail: N * h2d + run + d2h.
TEST_CASE("two streams: copy-bound total N*h2d + run + d2h") {
  const Graph graph = total_sum(1024, 1024);
  auto executable = compile_npusim(graph, "Ascend310P3");
  const Times t = times_of(*executable, soc("Ascend310P3"), input(1024, 1024));
  REQUIRE(t.h2d >= t.run + t.d2h);

  npusim::NpusimBackend backend;
  auto first = backend.create_stream();
  auto second = backend.create_stream();
  std::vector<TensorMap> outputs(kIterations);
  for (int i = 0; i < kIterations; ++i)
    executable->execute_async(i % 2 == 0 ? *first : *second, {{"x", input(1024, 1024)}},
                              &outputs[static_cast<std::size_t>(i)], RunOptions{});
  first->synchronize();
  second->synchronize();
  CHECK(dynamic_cast<NpusimStream&>(*first).device().host_time_us() ==
        doctest::Approx(kIterations * t.h2d + t.run + t.d2h));
}

TEST_CASE("a failing run on a stream is rethrown by synchronize and the device moves on") {
  const Graph graph = two_matmuls(64, 64, 256);
  auto executable = compile_npusim(graph, "Ascend310P3");
  auto stream = npusim::NpusimBackend().create_stream();
  TensorMap outputs;
  executable->execute_async(*stream, {{"x", input(64, 32)}}, &outputs, RunOptions{});  // wrong shape
  CHECK_THROWS_AS(stream->synchronize(), Error);
  executable->execute_async(*stream, {{"x", input(64, 64)}}, &outputs, RunOptions{});
  stream->synchronize();
  CHECK(outputs.at("y").numel() == 64 * 64);
}
