// The TBE DSL (asc/sdk/tbe/): every primitive's golden against a float64 computation written
// here, the device numerics, the build-time checks (EE2004) and the schedule (EE2005, footprints).
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>
#include <asc/sdk/half.hpp>
#include <asc/sdk/tbe/evaluate.hpp>
#include <asc/sdk/tbe/op.hpp>
#include <asc/sdk/tbe/schedule.hpp>
#include <cmath>
#include <functional>
#include <random>

using namespace asc;
using namespace asc::tbe;

namespace {

std::vector<double> random_values(std::size_t count, unsigned seed, double low = -1, double high = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(low, high);
  std::vector<double> v(count);
  for (double& x : v) x = dist(rng);
  return v;
}

Tensor f64(const Shape& shape, const std::vector<double>& values) { return Tensor::from_vector<double>(shape, values); }

std::vector<double> golden(const TensorExpr& y, const std::map<std::string, const Tensor*>& inputs) {
  const Tensor out = evaluate(y, inputs);
  REQUIRE(out.dtype() == DType::Float64);
  REQUIRE(out.shape() == y.shape());
  return out.to_doubles();
}

void check_close(const std::vector<double>& actual, const std::vector<double>& expected, double tolerance = 1e-12) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i)
    CHECK_MESSAGE(std::abs(actual[i] - expected[i]) <= tolerance * (1 + std::abs(expected[i])), "element " << i);
}

// Throws `code` and the message holds every one of `parts`.
void check_error(const std::function<void()>& body, ErrorCode code, const std::vector<std::string>& parts) {
  try {
    body();
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == code);
    for (const std::string& part : parts) CHECK_MESSAGE(e.message().find(part) != std::string::npos, e.message());
  }
}

// The SoC of configs/soc/Ascend910.yaml as far as the scheduler needs it (buffer sizes per core).
KernelTarget ascend910() {
  KernelTarget t;
  t.soc_version = "Ascend910";
  t.ai_cores = 32;
  t.vector_cores = 32;
  t.l0a_bytes = t.l0b_bytes = 64 * 1024;
  t.l0c_bytes = 256 * 1024;
  t.l1_bytes = 1024 * 1024;
  t.ub_bytes = 256 * 1024;
  return t;
}

}  // namespace

TEST_CASE("tbe: conv2d golden equals a direct float64 convolution (strides, pads, dilations, groups)") {
  const Shape xs{2, 4, 7, 6}, ws{6, 2, 3, 2};
  const auto xv = random_values(static_cast<std::size_t>(num_elements(xs)), 1);
  const auto wv = random_values(static_cast<std::size_t>(num_elements(ws)), 2);
  const Tensor xt = f64(xs, xv), wt = f64(ws, wv);
  const Conv2dParams p{{2, 1}, {1, 0, 2, 1}, {1, 2}, 2};
  const TensorExpr y = conv2d(placeholder("x", xs, DType::Float32), placeholder("w", ws, DType::Float32), p);
  // Output size: floor((in + pads - dilation*(k-1) - 1) / stride) + 1.
  const std::int64_t oh = (7 + 1 + 2 - 1 * (3 - 1) - 1) / 2 + 1, ow = (6 + 0 + 1 - 2 * (2 - 1) - 1) / 1 + 1;
  REQUIRE(y.shape() == Shape{2, 6, oh, ow});
  CHECK(y.dtype() == DType::Float32);
  std::vector<double> expected;
  for (int n = 0; n < 2; ++n)
    for (int m = 0; m < 6; ++m)
      for (int i = 0; i < oh; ++i)
        for (int j = 0; j < ow; ++j) {
          double sum = 0;
          const int g = m / 3;
          for (int c = 0; c < 2; ++c)
            for (int r = 0; r < 3; ++r)
              for (int s = 0; s < 2; ++s) {
                const int yi = i * 2 - 1 + r * 1, xi = j * 1 - 0 + s * 2;
                if (yi < 0 || yi >= 7 || xi < 0 || xi >= 6) continue;
                sum += xv[((n * 4 + g * 2 + c) * 7 + yi) * 6 + xi] * wv[((m * 2 + c) * 3 + r) * 2 + s];
              }
          expected.push_back(sum);
        }
  check_close(golden(y, {{"x", &xt}, {"w", &wt}}), expected);
}

TEST_CASE("tbe: matmul golden with and without transposes") {
  const auto av = random_values(3 * 5, 3), bv = random_values(5 * 4, 4);
  for (const bool ta : {false, true})
    for (const bool tb : {false, true}) {
      const Shape as = ta ? Shape{5, 3} : Shape{3, 5}, bs = tb ? Shape{4, 5} : Shape{5, 4};
      // The stored operands are the transposes of A [3x5] and B [5x4] where asked.
      std::vector<double> a_stored(15), b_stored(20);
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 5; ++k) a_stored[ta ? k * 3 + i : i * 5 + k] = av[i * 5 + k];
      for (int k = 0; k < 5; ++k)
        for (int j = 0; j < 4; ++j) b_stored[tb ? j * 5 + k : k * 4 + j] = bv[k * 4 + j];
      const Tensor at = f64(as, a_stored), bt = f64(bs, b_stored);
      const TensorExpr y = matmul(placeholder("a", as, DType::Float16), placeholder("b", bs, DType::Float16), {ta, tb});
      REQUIRE(y.shape() == Shape{3, 4});
      std::vector<double> expected;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) {
          double sum = 0;
          for (int k = 0; k < 5; ++k) sum += av[i * 5 + k] * bv[k * 4 + j];
          expected.push_back(sum);
        }
      check_close(golden(y, {{"a", &at}, {"b", &bt}}), expected);
    }
}

TEST_CASE("tbe: every Vector primitive's golden against float64") {
  const Shape s{2, 3, 4};
  const auto av = random_values(24, 5, 0.5, 2.0), bv = random_values(24, 6, 0.5, 2.0);
  const auto sv = random_values(24, 7, -2.0, 2.0);
  const Tensor at = f64(s, av), bt = f64(s, bv), st = f64(s, sv);
  const TensorExpr a = placeholder("a", s, DType::Float32), b = placeholder("b", s, DType::Float32);
  const TensorExpr sg = placeholder("s", s, DType::Float32);
  const std::map<std::string, const Tensor*> in{{"a", &at}, {"b", &bt}, {"s", &st}};
  auto each = [&](const std::vector<double>& x, const std::function<double(double, std::size_t)>& f) {
    std::vector<double> out;
    for (std::size_t i = 0; i < x.size(); ++i) out.push_back(f(x[i], i));
    return out;
  };
  check_close(golden(vmuls(a, 2.5), in), each(av, [](double v, std::size_t) { return v * 2.5; }));
  check_close(golden(vadds(a, -0.75), in), each(av, [](double v, std::size_t) { return v - 0.75; }));
  check_close(golden(vmul(a, b), in), each(av, [&](double v, std::size_t i) { return v * bv[i]; }));
  check_close(golden(vadd(a, b), in), each(av, [&](double v, std::size_t i) { return v + bv[i]; }));
  check_close(golden(vsub(a, b), in), each(av, [&](double v, std::size_t i) { return v - bv[i]; }));
  check_close(golden(vdiv(a, b), in), each(av, [&](double v, std::size_t i) { return v / bv[i]; }));
  check_close(golden(vmax(a, b), in), each(av, [&](double v, std::size_t i) { return v > bv[i] ? v : bv[i]; }));
  check_close(golden(vmin(a, b), in), each(av, [&](double v, std::size_t i) { return v < bv[i] ? v : bv[i]; }));
  check_close(golden(vrelu(sg), in), each(sv, [](double v, std::size_t) { return v > 0 ? v : 0.0; }));
  check_close(golden(vexp(sg), in), each(sv, [](double v, std::size_t) { return std::exp(v); }));
  check_close(golden(vlog(a), in), each(av, [](double v, std::size_t) { return std::log(v); }));
  check_close(golden(vabs(sg), in), each(sv, [](double v, std::size_t) { return v < 0 ? -v : v; }));
  check_close(golden(vrec(a), in), each(av, [](double v, std::size_t) { return 1.0 / v; }));
  check_close(golden(vsqrt(a), in), each(av, [](double v, std::size_t) { return std::sqrt(v); }));
  const TensorExpr c = cast(a, DType::Float16);
  CHECK(c.dtype() == DType::Float16);
  check_close(golden(c, in), av);  // the golden does not round
}

TEST_CASE("tbe: broadcasting, numpy-style and at an axis") {
  const auto yv = random_values(2 * 3 * 2 * 2, 8), cv = random_values(3, 9), rv = random_values(2, 10);
  const Tensor yt = f64({2, 3, 2, 2}, yv), ct = f64({3}, cv), rt = f64({2}, rv);
  const TensorExpr y = placeholder("y", {2, 3, 2, 2}, DType::Float32);
  const TensorExpr c = placeholder("c", {3}, DType::Float32), r = placeholder("r", {2}, DType::Float32);
  const std::map<std::string, const Tensor*> in{{"y", &yt}, {"c", &ct}, {"r", &rt}};
  std::vector<double> per_channel, trailing;
  for (int n = 0; n < 2; ++n)
    for (int ch = 0; ch < 3; ++ch)
      for (int h = 0; h < 2; ++h)
        for (int w = 0; w < 2; ++w) {
          const double v = yv[((n * 3 + ch) * 2 + h) * 2 + w];
          per_channel.push_back(v * cv[ch]);
          trailing.push_back(v + rv[w]);
        }
  check_close(golden(vmul(y, broadcast(c, y.shape(), 1)), in), per_channel);
  check_close(golden(vadd(y, r), in), trailing);  // implicit numpy broadcasting
  check_close(golden(vadd(y, broadcast(r, y.shape())), in), trailing);
}

TEST_CASE("tbe: reduce_sum and reduce_max over axes") {
  const auto xv = random_values(2 * 3 * 4, 11);
  const Tensor xt = f64({2, 3, 4}, xv);
  const TensorExpr x = placeholder("x", {2, 3, 4}, DType::Float32);
  std::vector<double> sum02(3, 0.0), max1(8, -1e300);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) {
        const double v = xv[(i * 3 + j) * 4 + k];
        sum02[j] += v;
        max1[i * 4 + k] = std::max(max1[i * 4 + k], v);
      }
  const TensorExpr s = reduce_sum(x, {0, -1});
  CHECK(s.shape() == Shape{3});
  check_close(golden(s, {{"x", &xt}}), sum02);
  const TensorExpr m = reduce_max(x, {1}, true);
  CHECK(m.shape() == Shape{2, 1, 4});
  check_close(golden(m, {{"x", &xt}}), max1);
}

TEST_CASE("tbe: device numerics round to fp16 where stored and accumulate the Cube in fp32") {
  const Tensor ones = f64({1, 4097}, std::vector<double>(4097, 1.0));
  const Tensor column = f64({4097, 1}, std::vector<double>(4097, 1.0));
  const TensorExpr y = matmul(placeholder("a", {1, 4097}, DType::Float32), placeholder("b", {4097, 1}, DType::Float32));
  const EvaluateOptions fp16{Numerics::Device, DType::Float16, 1};
  // fp32 accumulation gives 4097 exactly (an fp16 accumulator would stop at 2048); storing the
  // result as fp16 rounds it to 4096 (round to nearest even).
  CHECK(evaluate(y, {{"a", &ones}, {"b", &column}}, fp16).to_doubles()[0] == 4096.0);
  CHECK(evaluate(y, {{"a", &ones}, {"b", &column}}).to_doubles()[0] == 4097.0);

  const Tensor one = f64({1}, {1.0});
  const TensorExpr z = vadds(placeholder("x", {1}, DType::Float32), 1e-4);
  CHECK(evaluate(z, {{"x", &one}}, fp16).to_doubles()[0] == 1.0);  // 1.0001 is 1.0 in fp16
  CHECK(evaluate(z, {{"x", &one}}, {Numerics::Device, DType::Float32, 1}).to_doubles()[0] ==
        static_cast<double>(1.0f + 1e-4f));
  // An explicit cast to fp32 keeps the epilogue in fp32 on an fp16 device.
  CHECK(evaluate(vadds(cast(placeholder("x", {1}, DType::Float16), DType::Float32), 1e-4), {{"x", &one}}, fp16)
            .to_doubles()[0] == static_cast<double>(1.0f + 1e-4f));
}

TEST_CASE("tbe: bad expressions are EE2004 naming the stage and both operands") {
  const TensorExpr a = placeholder("a", {2, 3}, DType::Float32);
  const TensorExpr h = placeholder("h", {2, 3}, DType::Float16);
  const TensorExpr b = placeholder("b", {4}, DType::Float32);
  check_error([&] { vadd(a, h); }, ErrorCode::TbeExpressionInvalid, {"vadd", "'a' [2,3] float32", "'h' [2,3] float16", "dtype"});
  check_error([&] { vmul(a, b); }, ErrorCode::TbeExpressionInvalid, {"vmul", "'a' [2,3]", "'b' [4]", "broadcast"});
  check_error([&] { matmul(a, placeholder("c", {4, 5}, DType::Float32)); }, ErrorCode::TbeExpressionInvalid,
              {"matmul", "'a'", "'c'", "inner dimensions 3 and 4"});
  check_error([&] { conv2d(placeholder("x", {1, 3, 8, 8}, DType::Float16), placeholder("w", {8, 4, 3, 3}, DType::Float16)); },
              ErrorCode::TbeExpressionInvalid, {"conv2d", "'x'", "'w'", "input channels 3"});
  check_error([&] { reduce_sum(a, {2}); }, ErrorCode::TbeExpressionInvalid, {"reduce_sum", "axis 2", "'a'"});
  check_error([&] { broadcast(b, {2, 3}, 1); }, ErrorCode::TbeExpressionInvalid, {"broadcast", "'b'"});
  check_error([&] { placeholder("p", {0, 3}, DType::Float32); }, ErrorCode::TbeExpressionInvalid, {"'p'", "positive"});
  const TensorExpr mm = matmul(placeholder("i8", {2, 3}, DType::Int8), placeholder("j8", {3, 2}, DType::Int8));
  check_error([&] { vrelu(mm); }, ErrorCode::TbeExpressionInvalid, {"vrelu", "int32", "cast"});
}

TEST_CASE("tbe: auto_schedule fuses the epilogue into the Cube tiles and fits every buffer") {
  const TensorExpr x = placeholder("x", {1, 64, 56, 56}, DType::Float32);
  const TensorExpr w = placeholder("w", {64, 64, 3, 3}, DType::Float32);
  const TensorExpr s = placeholder("scale", {64}, DType::Float32), o = placeholder("offset", {64}, DType::Float32);
  TensorExpr y = conv2d(x, w, {{1, 1}, {1, 1, 1, 1}});
  y = vrelu(vadd(vmul(y, broadcast(s, y.shape(), 1)), broadcast(o, y.shape(), 1)));
  const KernelTarget target = ascend910();
  const Schedule schedule = auto_schedule(y, target);
  CHECK(schedule.unit == ComputeUnit::Cube);
  const KernelTiling& t = schedule.tiling;
  CHECK(t.m == 56 * 56);
  CHECK(t.k == 64 * 9);
  CHECK(t.n == 64);
  CHECK(t.epilogue_passes == 3);  // vmul, vadd, vrelu; the broadcasts ride on the repeat strides
  CHECK(t.epilogue_inputs == 2);
  CHECK(t.block_dim <= 32);
  CHECK(t.l0a_bytes == 2 * t.base_m * t.base_k * 2);
  CHECK(t.l0c_bytes == 2 * t.base_m * t.base_n * 4);
  CHECK(t.l0a_bytes <= target.l0a_bytes);
  CHECK(t.l0b_bytes <= target.l0b_bytes);
  CHECK(t.l0c_bytes <= target.l0c_bytes);
  CHECK(t.l1_bytes <= target.l1_bytes);
  CHECK(t.ub_bytes > 0);
  CHECK(t.ub_bytes <= target.ub_bytes);
  for (const StagePlan& stage : schedule.stages) {
    if (stage.kind == StageKind::Conv2d) CHECK(stage.buffer == "L0C");
    if (stage.kind == StageKind::Relu) CHECK(stage.unit == ComputeUnit::Vector);
    if (stage.kind == StageKind::Relu) CHECK(stage.stored == DType::Float16);
  }
  const std::string text = schedule.describe(target);
  CHECK(text.find("UB: ") != std::string::npos);
  CHECK(text.find("Cube task, Vector epilogue fused into the output tiles of 'conv2d(x,w)'") != std::string::npos);
  CHECK(text.find("stage broadcast(scale) (broadcast): Vector, UB, float16") != std::string::npos);
  CHECK(text.find("stage broadcast(offset) (broadcast)") != std::string::npos);
}

TEST_CASE("tbe: oversized manual schedules are EE2005 naming the stage and the buffer") {
  const TensorExpr a = placeholder("a", {1024, 1024}, DType::Float16), b = placeholder("b", {1024, 1024}, DType::Float16);
  const TensorExpr y = vrelu(matmul(a, b).named("gemm"));
  const KernelTarget target = ascend910();
  // base_m 512 x base_k 64 fp16, twice: 128 KiB > L0A's 64 KiB.
  check_error([&] { auto_schedule(y, target, {.base_m = 512, .base_k = 64}); }, ErrorCode::TbeScheduleInvalid,
              {"'gemm'", "L0A needs 131072 bytes", "Ascend910 has 65536"});
  // 2 x 256 x 256 fp32 accumulators = 512 KiB > L0C's 256 KiB.
  check_error([&] { auto_schedule(y, target, {.base_m = 256, .base_k = 16, .base_n = 256}); }, ErrorCode::TbeScheduleInvalid,
              {"'gemm'", "L0C needs 524288"});
  check_error([&] { auto_schedule(y, target, {.base_m = 24}); }, ErrorCode::TbeScheduleInvalid,
              {"'gemm'", "base_m 24", "fractal"});
  check_error([&] { auto_schedule(y, target, {.buffer_count = 3}); }, ErrorCode::TbeScheduleInvalid, {"buffer_count 3"});
  check_error([&] { auto_schedule(y, target, {.block_dim = 33}); }, ErrorCode::TbeScheduleInvalid, {"'gemm'", "block_dim 33"});
  // Single buffering halves the footprints: the same base_m that overflowed now fits.
  const Schedule single = auto_schedule(y, target, {.buffer_count = 1, .base_m = 512, .base_k = 64});
  CHECK(single.tiling.l0a_bytes == 512 * 64 * 2);
  CHECK_FALSE(single.tiling.double_buffer);
  // A vector UB tile that cannot fit.
  const TensorExpr v = vadd(placeholder("p", {1 << 20}, DType::Float16), placeholder("q", {1 << 20}, DType::Float16));
  check_error([&] { auto_schedule(v, target, {.ub_tile_elements = 65536}); }, ErrorCode::TbeScheduleInvalid,
              {"UB needs", "Ascend910 has 262144"});
  // Two Cube stages, and a reduction after one, are named.
  check_error([&] { auto_schedule(matmul(matmul(a, b), placeholder("c", {1024, 1024}, DType::Float32)), target); }, ErrorCode::TbeScheduleInvalid, {"'matmul_5'", "a second Cube stage after 'matmul(a,b)'"});
  check_error([&] { auto_schedule(reduce_sum(matmul(a, b), {1}), target); }, ErrorCode::TbeScheduleInvalid,
              {"'reduce_sum_4'", "reduction after the Cube stage 'matmul(a,b)'"});
}

TEST_CASE("tbe: an operator definition derives inference, golden kernel and cost from the expression") {
  const OpDefinition op = make_op_definition({.domain = "com.example",
                                              .op_type = "ScaledRelu",
                                              .inputs = {"x", "s"},
                                              .compute = [](const OpInputs& in) { return vrelu(vmul(in[0], in[1])); }});
  Node node{"n0", "ScaledRelu", "com.example", {}, {"x", "s"}, {"y"}, {}};
  const ValueInfo x = ValueInfo::from_shape("x", DType::Float32, {2, 3});
  const ValueInfo s = ValueInfo::from_shape("s", DType::Float32, {3});
  InferenceContext inference{node, 1, {&x, &s}, {nullptr, nullptr}, {ValueInfo{"y", DType::Undefined, std::nullopt}}};
  op.infer(inference);
  CHECK(inference.outputs[0].dtype == DType::Float32);
  CHECK(inference.outputs[0].static_shape() == Shape{2, 3});

  const Tensor xt = Tensor::from_vector<float>({2, 3}, {-1, 2, 3, 4, -5, 6});
  const Tensor st = Tensor::from_vector<float>({3}, {0.5f, -1, 2});
  KernelContext kernel{node, 1, {&xt, &st}, std::vector<Tensor>(1)};
  op.compute(kernel);
  REQUIRE(kernel.outputs[0].dtype() == DType::Float32);
  CHECK(kernel.outputs[0].to_doubles() == std::vector<double>{0, 0, 6, 2, 5, 12});

  ValueInfo y = inference.outputs[0];
  const CostFacts facts = op.cost(CostContext{node, {&x, &s}, {&y}});
  CHECK(facts.unit == ComputeUnit::Vector);
  CHECK(facts.flops == 12);  // two passes over 6 elements
  CHECK(facts.bytes_read == (6 + 3) * 4);
  CHECK(facts.bytes_written == 6 * 4);
  CHECK_FALSE(facts.tiling.has_value());
  const KernelTarget target = ascend910();
  const CostFacts scheduled = op.cost(CostContext{node, {&x, &s}, {&y}, &target});
  REQUIRE(scheduled.tiling.has_value());
  CHECK(scheduled.tiling->elements == 6);

  // A mismatch in the node's inputs names the node and the stage.
  const ValueInfo bad = ValueInfo::from_shape("s", DType::Float32, {4});
  InferenceContext wrong{node, 1, {&x, &bad}, {nullptr, nullptr}, {ValueInfo{"y", DType::Undefined, std::nullopt}}};
  check_error([&] { op.infer(wrong); }, ErrorCode::TbeExpressionInvalid, {"node 'n0'", "com.example::ScaledRelu", "vmul", "'s' [4]"});
}

TEST_CASE("tbe: int8 Cube operands accumulate in int32; a cast makes the result float") {
  const std::vector<double> av{-128, 127, 3, -4, 5, 6}, bv{127, -128, 2, 1, -1, 7};  // [2x3], [3x2]
  const Tensor at = Tensor::from_vector<std::int8_t>({2, 3}, {-128, 127, 3, -4, 5, 6});
  const Tensor bt = Tensor::from_vector<std::int8_t>({3, 2}, {127, -128, 2, 1, -1, 7});
  const TensorExpr mm = matmul(placeholder("a", {2, 3}, DType::Int8), placeholder("b", {3, 2}, DType::Int8));
  CHECK(mm.dtype() == DType::Int32);
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      double sum = 0;
      for (int k = 0; k < 3; ++k) sum += av[i * 3 + k] * bv[k * 2 + j];
      expected.push_back(sum);
    }
  check_close(golden(mm, {{"a", &at}, {"b", &bt}}), expected, 0);
  const TensorExpr y = vmuls(cast(mm, DType::Float32), 0.5);
  std::vector<double> halved;
  for (const double v : expected) halved.push_back(v / 2);
  check_close(golden(y, {{"a", &at}, {"b", &bt}}), halved, 0);
  // The device evaluation sums the int8 products exactly in its accumulator as well.
  check_close(evaluate(mm, {{"a", &at}, {"b", &bt}}, {Numerics::Device, DType::Float16, 1}).to_doubles(), expected, 0);
}
