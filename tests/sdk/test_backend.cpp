#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "asc/sdk/backend.hpp"
#include "asc/sdk/error.hpp"

namespace {

// Doubles input "x" into output "y"; counts runs and remembers the thread that ran it.
class DoublingExecutable : public asc::Executable {
 public:
  std::vector<asc::ValueInfo> input_infos() const override { return {}; }
  std::vector<asc::ValueInfo> output_infos() const override { return {}; }
  asc::TensorMap execute(const asc::TensorMap& inputs, const asc::RunOptions&) override {
    ran_on = std::this_thread::get_id();
    const auto it = inputs.find("x");
    if (it == inputs.end()) throw asc::Error(asc::ErrorCode::InputMissing, "input 'x' missing");
    return {{"y", asc::Tensor::from_vector<float>({1}, {it->second.data<float>()[0] * 2})}};
  }
  std::thread::id ran_on;
};

class ForeignStream : public asc::Stream {
 public:
  void synchronize() override {}
};

class MinimalBackend : public asc::Backend {
 public:
  std::string name() const override { return "minimal"; }
  std::string description() const override { return "no file format"; }
  std::unique_ptr<asc::Executable> compile(const asc::Graph&, const asc::OpRegistry&,
                                           const asc::BackendOptions&) const override {
    return std::make_unique<DoublingExecutable>();
  }
};

}  // namespace

TEST_CASE("HostStream runs work in order on one worker thread") {
  asc::HostStream stream;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  for (int i = 0; i < 50; ++i)
    stream.enqueue([&, i] {
      if (i == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      order.push_back(i);
      threads.push_back(std::this_thread::get_id());
    });
  stream.synchronize();
  REQUIRE(order.size() == 50);
  for (int i = 0; i < 50; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);
  CHECK(threads.front() != std::this_thread::get_id());
  CHECK(std::all_of(threads.begin(), threads.end(), [&](auto id) { return id == threads.front(); }));
}

TEST_CASE("synchronize rethrows the first error once, and later work still runs") {
  asc::HostStream stream;
  std::atomic<int> ran{0};
  stream.enqueue([] { throw std::runtime_error("first"); });
  stream.enqueue([] { throw std::runtime_error("second"); });
  stream.enqueue([&] { ++ran; });
  CHECK_THROWS_WITH(stream.synchronize(), "first");
  CHECK(ran == 1);
  CHECK_NOTHROW(stream.synchronize());
  stream.enqueue([&] { ++ran; });
  stream.synchronize();
  CHECK(ran == 2);
}

TEST_CASE("the destructor finishes queued work") {
  std::atomic<int> ran{0};
  {
    asc::HostStream stream;
    for (int i = 0; i < 10; ++i) stream.enqueue([&] { ++ran; });
  }
  CHECK(ran == 10);
}

TEST_CASE("execute_async runs on a HostStream's worker, or synchronously elsewhere") {
  MinimalBackend backend;
  auto stream = backend.create_stream();
  REQUIRE(dynamic_cast<asc::HostStream*>(stream.get()) != nullptr);
  auto executable = backend.compile({}, asc::OpRegistry{}, {});
  auto& doubling = static_cast<DoublingExecutable&>(*executable);

  asc::TensorMap outputs;
  executable->execute_async(*stream, {{"x", asc::Tensor::from_vector<float>({1}, {21})}}, &outputs, {});
  stream->synchronize();
  REQUIRE(outputs.count("y") == 1);
  CHECK(outputs.at("y").data<float>()[0] == 42.0f);
  CHECK(doubling.ran_on != std::this_thread::get_id());

  asc::TensorMap missing_outputs;
  executable->execute_async(*stream, {}, &missing_outputs, {});
  try {
    stream->synchronize();
    FAIL("expected EE8002");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::InputMissing);
  }

  ForeignStream foreign;
  asc::TensorMap direct;
  executable->execute_async(foreign, {{"x", asc::Tensor::from_vector<float>({1}, {1.5f})}}, &direct, {});
  CHECK(direct.at("y").data<float>()[0] == 3.0f);
  CHECK(doubling.ran_on == std::this_thread::get_id());
}

TEST_CASE("load and save default to EE9001 saying there is no file format") {
  MinimalBackend backend;
  try {
    backend.load("model.om", asc::OpRegistry{}, {});
    FAIL("expected EE9001");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::Internal);
    CHECK(error.message().find("no file format") != std::string::npos);
    CHECK(error.message().find("model.om") != std::string::npos);
    CHECK(error.message().find("minimal") != std::string::npos);
  }
  auto executable = backend.compile({}, asc::OpRegistry{}, {});
  try {
    executable->save("out.om");
    FAIL("expected EE9001");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::Internal);
    CHECK(error.message().find("no file format") != std::string::npos);
  }
}
