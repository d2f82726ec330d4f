#include "tolerance_search.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <vector>

#include "element_errors.hpp"
#include "element_reader.hpp"
#include "parallel_chunks.hpp"

namespace asc::validator {
namespace {

constexpr int kDigitBits = 16;
constexpr std::size_t kDigits = std::size_t{1} << kDigitBits;
// A bucket this small is collected and finished with nth_element instead of another pass.
constexpr std::int64_t kCollectLimit = std::int64_t{1} << 16;

// Calls visit(bits) with the error's bit pattern for every finite pair; non-negative doubles
// order like their bit patterns.
template <class Visit>
void for_each_error(const ElementReader& golden, const ElementReader& actual, ErrorKind kind,
                    std::int64_t begin, std::int64_t end, Visit&& visit) {
  std::vector<double> g(kBlockSize), a(kBlockSize);
  for (std::int64_t start = begin; start < end; start += static_cast<std::int64_t>(kBlockSize)) {
    const auto count = static_cast<std::size_t>(std::min<std::int64_t>(kBlockSize, end - start));
    golden.read(start, count, g.data());
    actual.read(start, count, a.data());
    for (std::size_t i = 0; i < count; ++i) {
      if (!std::isfinite(g[i]) || !std::isfinite(a[i])) continue;
      const double abs = std::fabs(a[i] - g[i]);
      visit(std::bit_cast<std::uint64_t>(kind == ErrorKind::Absolute ? abs : relative_error(abs, g[i])));
    }
  }
}

}  // namespace

double smallest_passing_tolerance(const TensorView& golden_view, const TensorView& actual_view,
                                  ErrorKind kind, std::int64_t allowed, std::int64_t finite_pairs) {
  if (allowed >= finite_pairs) return 0.0;
  const ElementReader golden(golden_view), actual(actual_view);
  const std::int64_t count = golden_view.numel();
  const int workers = worker_count(count);
  std::int64_t rank = allowed + 1;  // 1 = the largest error
  std::uint64_t prefix = 0;
  int known_bits = 0;
  while (known_bits < 64) {
    const int shift = 64 - known_bits - kDigitBits;
    std::vector<std::vector<std::int64_t>> histograms(static_cast<std::size_t>(workers));
    run_chunks(count, workers, [&](int w, std::int64_t begin, std::int64_t end) {
      auto& histogram = histograms[static_cast<std::size_t>(w)];
      histogram.assign(kDigits, 0);
      for_each_error(golden, actual, kind, begin, end, [&](std::uint64_t bits) {
        if (known_bits == 0 || (bits >> (64 - known_bits)) == prefix)
          ++histogram[(bits >> shift) & (kDigits - 1)];
      });
    });
    std::int64_t bucket = 0;
    std::size_t digit = kDigits;
    while (digit-- > 0) {
      bucket = 0;
      for (const auto& histogram : histograms) bucket += histogram[digit];
      if (bucket >= rank) break;
      rank -= bucket;
    }
    prefix = (prefix << kDigitBits) | digit;
    known_bits += kDigitBits;
    if (known_bits == 64) break;
    if (bucket <= kCollectLimit) {
      std::vector<std::vector<std::uint64_t>> collected(static_cast<std::size_t>(workers));
      run_chunks(count, workers, [&](int w, std::int64_t begin, std::int64_t end) {
        for_each_error(golden, actual, kind, begin, end, [&](std::uint64_t bits) {
          if ((bits >> (64 - known_bits)) == prefix) collected[static_cast<std::size_t>(w)].push_back(bits);
        });
      });
      std::vector<std::uint64_t> values;
      for (const auto& part : collected) values.insert(values.end(), part.begin(), part.end());
      const auto at = values.begin() + (rank - 1);
      std::nth_element(values.begin(), at, values.end(), std::greater<>());
      return std::bit_cast<double>(*at);
    }
  }
  return std::bit_cast<double>(prefix);
}

}  // namespace asc::validator
