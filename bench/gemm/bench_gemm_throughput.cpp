// Single-thread float32 GEMM throughput on ResNet-50's conv GEMM shapes (M output channels, N
// output positions, K = input channels x kernel), for the two kernels ops_builtin can use:
// oneDNN's dnnl_sgemm and Eigen compiled for AVX2 + FMA (BENCHMARKS.md, "GEMM throughput").
// Prints GFLOP/s (best of --repeats) and FLOP per cycle at the clock /proc/cpuinfo reports
// (a VM's nominal clock: boost clocks are not visible, so this overstates FLOP/cycle when the
// core runs faster). Compare with the core's peak: 2 FMA pipes x lanes x 2, i.e. 32 FLOP/cycle
// for 256-bit FMA units, 64 for full-width 512-bit ones.
//
//   bench_gemm_throughput [--repeats N]
#include <dnnl.h>
#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct GemmShape {
  int m, n, k;
};

// ResNet-50's conv layers as GEMMs at batch 1 (stem, then one of each bottleneck shape per stage).
constexpr GemmShape kShapes[] = {
    {64, 12544, 147}, {64, 3136, 64},  {64, 3136, 576},  {256, 3136, 64},  {128, 784, 1152},
    {512, 784, 128},  {128, 784, 512}, {256, 196, 2304}, {1024, 196, 256}, {256, 196, 1024},
    {512, 49, 4608},  {2048, 49, 512}, {512, 49, 2048},
};

double nominal_mhz() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("cpu MHz", 0) == 0) return std::atof(line.substr(line.find(':') + 1).c_str());
  return 0;
}

template <class Fn>
double best_seconds(int repeats, Fn&& fn) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeats" && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: bench_gemm_throughput [--repeats N]\n");
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  omp_set_num_threads(1);  // one core, as each of ops_builtin's pool threads calls it
  const double mhz = nominal_mhz();
  std::printf("one thread, best of %d; nominal clock %.0f MHz\n", repeats, mhz);
  std::printf("%6s %6s %6s  %14s %14s\n", "M", "N", "K", "oneDNN GFLOP/s", "Eigen GFLOP/s");
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  double flops_total = 0, onednn_total = 0, eigen_total = 0;
  for (const GemmShape& s : kShapes) {
    std::vector<float> a(static_cast<std::size_t>(s.m) * s.k, 0.5f), b(static_cast<std::size_t>(s.k) * s.n, 0.25f),
        c(static_cast<std::size_t>(s.m) * s.n);
    const double onednn = best_seconds(repeats, [&] {
      dnnl_sgemm('N', 'N', s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(), s.n, 0.0f, c.data(), s.n);
    });
    const double eigen = best_seconds(repeats, [&] {
      Eigen::Map<Matrix>(c.data(), s.m, s.n).noalias() =
          Eigen::Map<const Matrix>(a.data(), s.m, s.k) * Eigen::Map<const Matrix>(b.data(), s.k, s.n);
    });
    const double flops = 2.0 * s.m * s.n * s.k;
    flops_total += flops;
    onednn_total += onednn;
    eigen_total += eigen;
    std::printf("%6d %6d %6d  %14.1f %14.1f\n", s.m, s.n, s.k, flops / onednn / 1e9, flops / eigen / 1e9);
  }
  const double onednn_rate = flops_total / onednn_total / 1e9, eigen_rate = flops_total / eigen_total / 1e9;
  std::printf("all shapes: oneDNN %.1f GFLOP/s (%.1f FLOP/cycle at the nominal clock), Eigen %.1f (%.1f)\n", onednn_rate,
              mhz > 0 ? onednn_rate * 1e3 / mhz : 0.0, eigen_rate, mhz > 0 ? eigen_rate * 1e3 / mhz : 0.0);
  return 0;
}
