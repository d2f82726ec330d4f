// Float32 throughput of the built-in Conv kernel (ops_builtin, called through its registry as a
// backend does) on each distinct ResNet-50 convolution at batch 1, in its two ways (BENCHMARKS.md,
// "Convolution throughput"):
//   nchw:         contiguous in and out: im2col + oneDNN's sgemm per column block;
//   channels-last: what the execution plan runs when the readers take NHWC (SDK 0.5): oneDNN's
//                 direct convolution on NHWC input (its Winograd kernels for the 3x3 layers of
//                 64-128 channels at 56x56 and 28x28 on AVX-512 machines), primitives and
//                 reordered weights kept in the step's KernelState (built before timing, as a
//                 model's first run does). GFLOP/s count direct convolution's FLOPs throughout.
// Prints GFLOP/s (best of --repeats) per layer and over all 53 convolutions (each distinct shape
// weighted by how often ResNet-50 has it), and the ratio; compare with the core's peak
// (bench_gemm_throughput's header: 64 FLOP/cycle on this machine's AVX-512 cores).
//
//   bench_conv_throughput [--threads N] [--repeats N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <asc/host/plugin_host.hpp>
#include <asc/sdk/kernel_state.hpp>
#include <asc/sdk/op_registry.hpp>

namespace {

struct ConvLayer {
  std::int64_t in_channels, out_channels, kernel, stride, size;  // size: input height = width
  int count;                                                    // how many ResNet-50 has
};

// ResNet-50 (torchvision, stride on the 3x3) at 224x224: stem, then each stage's distinct layers.
constexpr ConvLayer kLayers[] = {
    {3, 64, 7, 2, 224, 1},     {64, 64, 1, 1, 56, 1},     {64, 64, 3, 1, 56, 3},     {64, 256, 1, 1, 56, 4},
    {256, 64, 1, 1, 56, 2},    {256, 128, 1, 1, 56, 1},   {128, 128, 3, 2, 56, 1},   {128, 512, 1, 1, 28, 4},
    {256, 512, 1, 2, 56, 1},   {512, 128, 1, 1, 28, 3},   {128, 128, 3, 1, 28, 3},   {512, 256, 1, 1, 28, 1},
    {256, 256, 3, 2, 28, 1},   {256, 1024, 1, 1, 14, 6},  {512, 1024, 1, 2, 28, 1},  {1024, 256, 1, 1, 14, 5},
    {256, 256, 3, 1, 14, 5},   {1024, 512, 1, 1, 14, 1},  {512, 512, 3, 2, 14, 1},   {512, 2048, 1, 1, 7, 3},
    {1024, 2048, 1, 2, 14, 1}, {2048, 512, 1, 1, 7, 2},   {512, 512, 3, 1, 7, 2},
};

asc::Tensor random_tensor(const asc::Shape& shape, std::mt19937& random) {
  asc::Tensor tensor(asc::DType::Float32, shape);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float& value : tensor.span<float>()) value = uniform(random);
  return tensor;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 1, repeats = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--threads" && i + 1 < argc) threads = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--repeats" && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: bench_conv_throughput [--threads N] [--repeats N]\n");
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  asc::host::PluginHost plugins({});
  plugins.load_file(ASC_BENCH_OPS_BUILTIN_PLUGIN);
  const asc::OpDefinition* conv = plugins.registry().ops().find("", "Conv", 13);
  if (conv == nullptr) return 1;

  std::mt19937 random(7);
  double total_flops = 0, total_nchw = 0, total_channels_last = 0;
  std::printf("%d thread(s), best of %d\n%-28s %10s %10s %7s\n", threads, repeats, "layer (C->M, k, s, size)",
              "nchw", "NHWC", "ratio");
  for (const ConvLayer& layer : kLayers) {
    const std::int64_t pad = layer.kernel / 2;
    const std::int64_t out = (layer.size + 2 * pad - layer.kernel) / layer.stride + 1;
    const asc::Tensor x = random_tensor({1, layer.in_channels, layer.size, layer.size}, random);
    const asc::Tensor w = random_tensor({layer.out_channels, layer.in_channels, layer.kernel, layer.kernel}, random);
    const asc::Tensor b = random_tensor({layer.out_channels}, random);
    const asc::Tensor x_nhwc = x.channels_last();
    asc::Node node;
    node.name = "conv";
    node.op_type = "Conv";
    node.inputs = {"x", "w", "b"};
    node.outputs = {"y"};
    node.attributes.set("strides", std::vector<std::int64_t>{layer.stride, layer.stride});
    node.attributes.set("pads", std::vector<std::int64_t>{pad, pad, pad, pad});
    asc::KernelState state;
    auto run = [&](bool channels_last) {
      asc::KernelContext context{node, 13, {channels_last ? &x_nhwc : &x, &w, &b}, std::vector<asc::Tensor>(1), threads};
      if (channels_last) {
        context.channels_last_outputs = {true};
        context.constant_inputs = {false, true, true};
        context.state = &state;
      }
      conv->compute(context);
    };
    auto best = [&](bool channels_last) {
      run(channels_last);  // warm-up: caches, scratch buffers, primitives
      double seconds = 1e30;
      for (int r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        run(channels_last);
        seconds = std::min(seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      return seconds;
    };
    const double flops = 2.0 * static_cast<double>(layer.out_channels * out * out * layer.in_channels * layer.kernel *
                                                   layer.kernel);
    const double nchw = best(false), channels_last = best(true);
    total_flops += flops * layer.count;
    total_nchw += nchw * layer.count;
    total_channels_last += channels_last * layer.count;
    char label[64];
    std::snprintf(label, sizeof label, "%lld->%lld, %lld, %lld, %lld", static_cast<long long>(layer.in_channels),
                  static_cast<long long>(layer.out_channels), static_cast<long long>(layer.kernel),
                  static_cast<long long>(layer.stride), static_cast<long long>(layer.size));
    std::printf("%-28s %10.1f %10.1f %7.2f\n", label, flops / nchw * 1e-9, flops / channels_last * 1e-9,
                nchw / channels_last);
  }
  std::printf("all 53 convolutions: nchw %.2f ms %.1f GFLOP/s, NHWC %.2f ms %.1f GFLOP/s, ratio %.2f\n",
              total_nchw * 1e3, total_flops / total_nchw * 1e-9, total_channels_last * 1e3,
              total_flops / total_channels_last * 1e-9, total_nchw / total_channels_last);
  return 0;
}
