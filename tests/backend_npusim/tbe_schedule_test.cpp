// TBE DSL operators on the simulator (asc/sdk/tbe/, docs/custom_ops.md): on every SoC file, the
// auto-scheduled footprints of Conv+BN+ReLU on ResNet-50's layer shapes fit every buffer; the
// task is timed from the DSL's own tiling, within 10 % of the built-in fused Conv (Conv with the
// BN folded in, ReLU epilogue) and never below the physical bound; op-info lookups respect the
// operator's domain.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>
#include <asc/sdk/tbe/op.hpp>
#include <cstdio>
#include <filesystem>

#include <asc/host/plugin_host.hpp>

#include "compiler/kernel_target.hpp"
#include "compiler/op_info.hpp"
#include "compiler/task_input.hpp"
#include "compiler/tiling.hpp"
#include "npusim_support.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

// ResNet-50's convolutions at batch 1, 224x224 (torchvision v1.5: the stride on the 3x3).
struct Layer {
  std::int64_t cin, cout, kernel, stride, size;
};
constexpr Layer kResNet50Layers[] = {
    {3, 64, 7, 2, 224},     {64, 64, 1, 1, 56},     {64, 64, 3, 1, 56},     {64, 256, 1, 1, 56},
    {256, 64, 1, 1, 56},    {256, 128, 1, 1, 56},   {128, 128, 3, 2, 56},   {128, 512, 1, 1, 28},
    {512, 128, 1, 1, 28},   {128, 128, 3, 1, 28},   {512, 256, 1, 1, 28},   {256, 256, 3, 2, 28},
    {256, 1024, 1, 1, 14},  {1024, 256, 1, 1, 14},  {256, 256, 3, 1, 14},   {1024, 512, 1, 1, 14},
    {512, 512, 3, 2, 14},   {512, 2048, 1, 1, 7},   {2048, 512, 1, 1, 7},   {512, 512, 3, 1, 7},
};

// The example's operator (examples/fused_conv_bn_relu) without a bias: the rewrite folds it into
// the offset.
tbe::TensorExpr conv_bn_relu(const tbe::OpInputs& in) {
  using namespace asc::tbe;
  const std::int64_t s = in.attrs().get_ints("strides").at(0), p = in.attrs().get_ints("pads").at(0);
  TensorExpr y = conv2d(in[0], in[1], {{s, s}, {p, p, p, p}});
  y = vmul(y, broadcast(in[2], y.shape(), 1));
  y = vadd(y, broadcast(in[3], y.shape(), 1));
  return vrelu(y);
}

const OpDefinition& dsl_op() {
  static const OpDefinition op = tbe::make_op_definition(
      {.domain = "com.example", .op_type = "ConvBnRelu", .inputs = {"x", "weight", "scale", "offset"}, .compute = conv_bn_relu});
  return op;
}

struct LayerValues {
  ValueInfo x, w, b, scale, offset, y;
  Attributes attributes;
};

LayerValues values_of(const Layer& l) {
  const std::int64_t out = (l.size + 2 * (l.kernel / 2) - l.kernel) / l.stride + 1;
  LayerValues v{ValueInfo::from_shape("x", DType::Float32, {1, l.cin, l.size, l.size}),
                ValueInfo::from_shape("w", DType::Float32, {l.cout, l.cin, l.kernel, l.kernel}),
                ValueInfo::from_shape("b", DType::Float32, {l.cout}),
                ValueInfo::from_shape("scale", DType::Float32, {l.cout}),
                ValueInfo::from_shape("offset", DType::Float32, {l.cout}),
                ValueInfo::from_shape("y", DType::Float32, {1, l.cout, out, out}),
                {}};
  v.attributes.set("strides", std::vector<std::int64_t>{l.stride, l.stride});
  v.attributes.set("pads", std::vector<std::int64_t>(4, l.kernel / 2));
  v.attributes.set("kernel_shape", std::vector<std::int64_t>{l.kernel, l.kernel});
  return v;
}

// The built-in operators with the fusion plugin's (FusedConv's kernel is built on Conv's).
const Registry& fusion_registry() {
  static const std::unique_ptr<host::PluginHost> plugins = [] {
    auto host = std::make_unique<host::PluginHost>(std::vector<std::filesystem::path>{ASC_BUILD_PLUGIN_DIR});
    for (const char* name : {"ops_builtin.so", "fusion.so"}) host->load_file(std::filesystem::path(ASC_BUILD_PLUGIN_DIR) / name);
    return host;
  }();
  return plugins->registry();
}

struct Timed {
  npusim::TaskInput task;
  npusim::Tiling tiling;
  npusim::TaskTiming timing;
};

// The DSL task as the compiler builds it: the operator's cost function schedules itself.
Timed time_dsl(const npusim::SocConfig& s, const LayerValues& v) {
  const Node node{"dsl", "ConvBnRelu", "com.example", v.attributes, {"x", "w", "scale", "offset"}, {"y"}, {}};
  Timed t;
  t.task = npusim::make_task_input(s, node, &dsl_op(), ComputeUnit::Cube, DType::Float16,
                                   {&v.x, &v.w, &v.scale, &v.offset}, {&v.y}, 0);
  REQUIRE(t.task.scheduled.has_value());
  t.tiling = *t.task.scheduled;
  t.timing = npusim::time_task(s, t.task, t.tiling);
  return t;
}

// The built-in fused Conv (ConvBatchNorm folds BN into W and B, ConvReLU adds the Relu epilogue),
// tiled by the compiler's own tiler.
Timed time_builtin(const npusim::SocConfig& s, const LayerValues& v) {
  Attributes attributes = v.attributes;
  attributes.set("activation", std::string("Relu"));
  const Node node{"builtin", "FusedConv", "asc", attributes, {"x", "w", "b"}, {"y"}, {}};
  const OpDefinition* op = fusion_registry().ops().find("asc", "FusedConv", 1);
  REQUIRE(op != nullptr);
  Timed t;
  t.task = npusim::make_task_input(s, node, op, ComputeUnit::Cube, DType::Float16, {&v.x, &v.w, &v.b}, {&v.y}, 0);
  t.tiling = npusim::choose_tiling(s, t.task);
  t.timing = npusim::time_task(s, t.task, t.tiling);
  return t;
}

std::vector<std::string> soc_names() { return npusim::known_socs(ASC_NPUSIM_SOURCE_SOC_DIR); }

}  // namespace

TEST_CASE("tbe: auto-scheduled Conv+BN+ReLU footprints fit every buffer on every SoC file") {
  const auto socs = soc_names();
  REQUIRE(socs.size() >= 7);
  for (const std::string& name : socs) {
    CAPTURE(name);
    const npusim::SocConfig s = soc(name);
    for (const Layer& layer : kResNet50Layers) {
      CAPTURE(layer.cin);
      CAPTURE(layer.cout);
      CAPTURE(layer.kernel);
      CAPTURE(layer.size);
      const npusim::Tiling t = time_dsl(s, values_of(layer)).tiling;
      CHECK(t.l0a_bytes > 0);
      CHECK(t.l0a_bytes <= s.l0a_bytes);
      CHECK(t.l0b_bytes <= s.l0b_bytes);
      CHECK(t.l0c_bytes <= s.l0c_bytes);
      CHECK(t.l1_bytes <= s.l1_bytes);
      CHECK(t.ub_bytes > 0);  // the epilogue tile and its per-channel operands
      CHECK(t.ub_bytes <= s.ub_bytes);
      CHECK(t.block_dim <= s.ai_cores);
      CHECK_NOTHROW(npusim::check_tiling_fits(s, t, "dsl"));
    }
    // A Vector-only expression: every operand's UB tile twice.
    const OpDefinition add = tbe::make_op_definition(
        {.op_type = "AddRelu", .compute = [](const tbe::OpInputs& in) { return tbe::vrelu(tbe::vadd(in[0], in[1])); }});
    const ValueInfo a = ValueInfo::from_shape("a", DType::Float32, {8, 256, 56, 56});
    const Node node{"v", "AddRelu", "", {}, {"a", "a"}, {"y"}, {}};
    const npusim::TaskInput task = npusim::make_task_input(s, node, &add, ComputeUnit::Vector, DType::Float16, {&a, &a}, {&a}, 0);
    REQUIRE(task.scheduled.has_value());
    CHECK(task.scheduled->ub_bytes <= s.ub_bytes);
    CHECK(task.scheduled->ub_bytes == 2 * 3 * task.scheduled->ub_tile_elements * 2);
    CHECK(task.scheduled->block_dim == (s.split ? s.vector_cores : s.ai_cores));
  }
}

TEST_CASE("tbe: DSL Conv+BN+ReLU on ResNet-50's layers: within 10 % of the built-in fused Conv, never below physics") {
  const bool print = std::getenv("ASC_TBE_REPORT") != nullptr;  // prints the table docs/custom_ops.md quotes
  for (const std::string name : {"Ascend310P3", "Ascend910", "Ascend910B3"}) {
    CAPTURE(name);
    const npusim::SocConfig s = soc(name);
    double dsl_total = 0, builtin_total = 0;
    for (const Layer& layer : kResNet50Layers) {
      CAPTURE(layer.cin);
      CAPTURE(layer.cout);
      CAPTURE(layer.kernel);
      CAPTURE(layer.size);
      const LayerValues v = values_of(layer);
      const Timed dsl = time_dsl(s, v);
      const Timed builtin = time_builtin(s, v);
      // The physical bound at fp16: the MACs at the cube's peak, the operands once over the
      // faster of device memory and L2.
      const double macs = static_cast<double>(num_elements(v.y.static_shape())) * layer.cin * layer.kernel * layer.kernel;
      const double bytes = 2.0 * static_cast<double>(num_elements(v.x.static_shape()) + num_elements(v.w.static_shape()) +
                                                     num_elements(v.y.static_shape()));
      const double bound_us = std::max(2 * macs / s.cube_fp16_peak_flops() * 1e6,
                                       bytes / (std::max(s.device_memory_bandwidth_gbs, s.l2_bandwidth_gbs) * 1e3));
      CHECK(dsl.timing.duration_us >= bound_us);
      CHECK(dsl.timing.pipes.vec > 0);  // the epilogue is timed on the vector pipe
      CHECK(dsl.timing.duration_us <= 1.10 * builtin.timing.duration_us);
      dsl_total += dsl.timing.duration_us;
      builtin_total += builtin.timing.duration_us;
      if (print)
        std::printf("%s %4lld->%-4lld k%lld s%lld %3lld: dsl %8.2f us  builtin %8.2f us  ratio %.3f  bound %7.2f us  tile %lldx%lldx%lld blocks %d\n",
                    name.c_str(), static_cast<long long>(layer.cin), static_cast<long long>(layer.cout),
                    static_cast<long long>(layer.kernel), static_cast<long long>(layer.stride),
                    static_cast<long long>(layer.size), dsl.timing.duration_us, builtin.timing.duration_us,
                    dsl.timing.duration_us / builtin.timing.duration_us, bound_us,
                    static_cast<long long>(dsl.tiling.base_m), static_cast<long long>(dsl.tiling.base_k),
                    static_cast<long long>(dsl.tiling.base_n), dsl.tiling.block_dim);
    }
    if (print) std::printf("%s total: dsl %.2f us, builtin %.2f us, ratio %.3f\n", name.c_str(), dsl_total, builtin_total,
                           dsl_total / builtin_total);
    CHECK(dsl_total <= 1.10 * builtin_total);
  }
}

TEST_CASE("tbe: op info is looked up by domain and op type; plugins declare their own per SoC") {
  npusim::OpInfoTable table = npusim::load_op_info("Ascend310P3", ASC_NPUSIM_SOURCE_SOC_DIR);
  const npusim::OpInfo& builtin = table.find("", "Softmax");
  const npusim::OpInfo& fallback = table.find("com.example", "NoSuchOp");
  // A custom domain's Softmax does not inherit the built-in Softmax's entry.
  CHECK(&table.find("com.example", "Softmax") == &fallback);
  CHECK(&table.find("ai.onnx", "Softmax") == &builtin);
  CHECK(table.find("asc", "FusedConv").op_type == "FusedConv");

  OpRegistry ops;
  OpDefinition custom = dsl_op();
  custom.kernel_info.dtypes = {{"Ascend310P3", {DType::Float16}}, {"*", {DType::Float16, DType::Float32}}};
  ops.add(custom);
  table.add_plugin_ops(ops);
  const npusim::OpInfo& declared = table.find("com.example", "ConvBnRelu");
  CHECK(declared.dtypes == std::vector<DType>{DType::Float16});
  CHECK(declared.source.find("com.example::ConvBnRelu") != std::string::npos);
  CHECK(&table.find("", "ConvBnRelu") == &fallback);  // same type, other domain
}

TEST_CASE("tbe: a tiling that does not fit the SoC is EE2005 naming the node and the buffer") {
  const npusim::SocConfig s = soc("Ascend310P3");
  npusim::Tiling t;
  t.ub_bytes = s.ub_bytes + 32;
  try {
    npusim::check_tiling_fits(s, t, "conv_7");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::TbeScheduleInvalid);
    CHECK(e.message().find("node 'conv_7'") != std::string::npos);
    CHECK(e.message().find("UB") != std::string::npos);
  }
}

TEST_CASE("a plain custom Cube operator that names only its GEMM is tiled and timed as the built-in MatMul of it") {
  // Once timed as a cube of its FLOPs (a 63x63x63 product for 2*63^3 FLOPs), whatever its shape.
  constexpr std::int64_t m = 96, k = 1024, n = 4096;
  const ValueInfo a = ValueInfo::from_shape("a", DType::Float32, {m, k});
  const ValueInfo b = ValueInfo::from_shape("b", DType::Float32, {k, n});
  const ValueInfo y = ValueInfo::from_shape("y", DType::Float32, {m, n});
  const auto facts = [](bool with_gemm) {
    CostFacts f{2.0 * m * k * n, (m * k + k * n) * 4, m * n * 4, ComputeUnit::Cube};
    if (with_gemm) f.tiling = KernelTiling{.m = m, .k = k, .n = n};
    return f;
  };
  OpDefinition custom{.domain = "com.example", .op_type = "MyGemm", .cost = [&](const CostContext&) { return facts(true); }};
  OpDefinition opaque{.domain = "com.example", .op_type = "MyGemm", .cost = [&](const CostContext&) { return facts(false); }};
  const OpDefinition* matmul = fusion_registry().ops().find("", "MatMul", 13);
  REQUIRE(matmul != nullptr);
  const Node custom_node{"mine", "MyGemm", "com.example", {}, {"a", "b"}, {"y"}, {}};
  const Node matmul_node{"builtin", "MatMul", "", {}, {"a", "b"}, {"y"}, {}};
  for (const std::string& name : soc_names()) {
    INFO(name);
    const npusim::SocConfig s = soc(name);
    const npusim::TaskInput mine = npusim::make_task_input(s, custom_node, &custom, ComputeUnit::Cube, DType::Float16, {&a, &b}, {&y}, 0);
    const npusim::TaskInput theirs = npusim::make_task_input(s, matmul_node, matmul, ComputeUnit::Cube, DType::Float16, {&a, &b}, {&y}, 0);
    REQUIRE(mine.gemm.has_value());
    CHECK(mine.gemm->m == m);
    CHECK(mine.gemm->k == k);
    CHECK(mine.gemm->n == n);
    CHECK_FALSE(mine.scheduled.has_value());  // no tiles of its own: the compiler's tiler picks them
    const npusim::TaskTiming mine_time = npusim::time_task(s, mine, npusim::choose_tiling(s, mine));
    const npusim::TaskTiming their_time = npusim::time_task(s, theirs, npusim::choose_tiling(s, theirs));
    CHECK(mine_time.duration_us == doctest::Approx(their_time.duration_us).epsilon(1e-9));
    // Without the GEMM the simulator can only guess its shape from the FLOPs.
    CHECK_FALSE(npusim::make_task_input(s, custom_node, &opaque, ComputeUnit::Cube, DType::Float16, {&a, &b}, {&y}, 0)
                    .gemm.has_value());
  }
}
