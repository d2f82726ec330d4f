// Throughput of the "precision" validator against the machine's memcpy bandwidth, measured in
// the same run: two float32 tensors of --elements values (golden random, actual = golden
// rounded to float16, like an fp16 NPU result), compared through the plugin as op_validate
// loads it. Bandwidth counts the bytes of both tensors read per second; memcpy counts the bytes
// copied per second. The [opvalidate] requirement is a ratio of at least 0.5 (reported, not
// enforced: on a shared machine the ratio moves with the load). The CPU time per element of a
// comparison (all threads together) is printed as well: it moves far less with the load, so it
// is what to compare between builds.
//
//   bench_validator [--elements N] [--repeats R]
#include <algorithm>
#include <asc/host/plugin_host.hpp>
#include <asc/sdk/half.hpp>
#include <asc/sdk/tensor.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <span>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::int64_t flag_value(int argc, char** argv, const std::string& name, std::int64_t fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == name) return std::stoll(argv[i + 1]);
  return fallback;
}

// Deterministic values in [-4, 4): a 64-bit LCG's high bits, cheap enough for 10^8 elements.
void fill_golden(std::span<float> values) {
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (float& v : values) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<float>(static_cast<double>(state >> 40) / static_cast<double>(1ULL << 24) * 8.0 - 4.0);
  }
}

// CPU time of the whole process (every thread), in seconds.
double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t elements = flag_value(argc, argv, "--elements", 100'000'000);
  const int repeats = static_cast<int>(flag_value(argc, argv, "--repeats", 5));
  const auto bytes = static_cast<std::size_t>(elements) * sizeof(float);

  asc::host::PluginHost plugins(asc::host::plugin_search_path({}));
  plugins.load_all();
  const asc::Validator* validator = plugins.registry().validator("precision");
  if (validator == nullptr) {
    std::fprintf(stderr,
                 "bench_validator: the 'precision' validator is not loaded (is validator.so built?)\n");
    return 1;
  }

  asc::Tensor golden(asc::DType::Float32, {elements}), actual(asc::DType::Float32, {elements});
  std::vector<float> copy(static_cast<std::size_t>(elements));
  fill_golden(golden.span<float>());
  asc::round_to_f16(golden.span<float>(), actual.span<float>());
  const asc::ComparisonOptions options;  // the seed's 1e-3 / 1e-2, no failures allowed

  std::vector<double> memcpy_rates, compare_rates, ratios, cpu_per_element;
  asc::ComparisonResult result;
  for (int r = 0; r < repeats; ++r) {  // interleaved, so that both see the same machine load
    auto start = Clock::now();
    std::memcpy(copy.data(), golden.data<float>(), bytes);
    const double memcpy_seconds = seconds_since(start);
    start = Clock::now();
    const double cpu_start = process_cpu_seconds();
    result = validator->compare(golden.view(), actual.view(), options);
    const double compare_seconds = seconds_since(start);
    cpu_per_element.push_back((process_cpu_seconds() - cpu_start) / static_cast<double>(elements) * 1e9);
    memcpy_rates.push_back(static_cast<double>(bytes) / memcpy_seconds / 1e9);
    compare_rates.push_back(2.0 * static_cast<double>(bytes) / compare_seconds / 1e9);
    ratios.push_back(compare_rates.back() / memcpy_rates.back());
    std::printf(
        "run %d: memcpy %.3f s (%.2f GB/s), compare %.3f s (%.2f GB/s, %.2f ns CPU/element), ratio %.2f\n",
        r + 1, memcpy_seconds, memcpy_rates.back(), compare_seconds, compare_rates.back(),
        cpu_per_element.back(), ratios.back());
  }
  std::printf("elements %lld (2 x %.0f MB float32), %d runs\n", static_cast<long long>(elements),
              static_cast<double>(bytes) / 1e6, repeats);
  std::printf(
      "median: memcpy %.2f GB/s, compare %.2f GB/s (%.2f ns CPU/element), ratio %.2f (requirement >= 0.50)\n",
      median(memcpy_rates), median(compare_rates), median(cpu_per_element), median(ratios));
  std::printf("check: CosineSimilarity %.9f, MaxRelativeError %.3g, FailingElements %.0f\n",
              result.metrics.at("CosineSimilarity"), result.metrics.at("MaxRelativeError"),
              result.metrics.at("FailingElements"));
  return 0;
}
