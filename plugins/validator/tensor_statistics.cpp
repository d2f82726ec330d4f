#include "tensor_statistics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <tuple>
#include <vector>

#include "element_errors.hpp"
#include "element_reader.hpp"
#include "float32_block_kernels.hpp"
#include "parallel_chunks.hpp"

namespace asc::validator {
namespace {

// Interleaved copies of each histogram counter ([bin][way]): consecutive elements usually fall
// into the same bin, and one counter would serialise them on its load-add-store latency (16 ways
// measured a third faster than 8; 32 slower, the counters no longer fit the caches). The
// 32-bit counters are flushed into the 64-bit totals long before they could wrap.
constexpr std::size_t kHistogramWays = 16;
constexpr std::size_t kOctaves = std::tuple_size_v<OctaveHistogram>;
constexpr std::int64_t kHistogramFlushInterval = std::int64_t{1} << 31;

class InterleavedHistogram {
 public:
  InterleavedHistogram() : counts_(kOctaves * kHistogramWays, 0) {}
  void add(const double* nonnegative, std::size_t count) {
    std::size_t i = 0;
    for (; i + kHistogramWays <= count; i += kHistogramWays)
      for (std::size_t way = 0; way < kHistogramWays; ++way)
        ++counts_[octave_of(nonnegative[i + way]) * kHistogramWays + way];
    for (; i < count; ++i) ++counts_[octave_of(nonnegative[i]) * kHistogramWays];
    if ((pending_ += static_cast<std::int64_t>(count)) >= kHistogramFlushInterval) flush();
  }
  void flush() {
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      totals_[i / kHistogramWays] += counts_[i];
      counts_[i] = 0;
    }
    pending_ = 0;
  }
  // Call flush() first.
  const OctaveHistogram& totals() const { return totals_; }

 private:
  static std::size_t octave_of(double v) {
    return static_cast<std::size_t>(std::bit_cast<std::uint64_t>(v) >> 52);
  }
  std::vector<std::uint32_t> counts_;
  OctaveHistogram totals_{};
  std::int64_t pending_ = 0;
};

void merge_first(FirstPassSums& total, const FirstPassSums& part, bool total_is_empty) {
  if (total_is_empty) {
    total = part;
    return;
  }
  total.abs_error_sum += part.abs_error_sum;
  total.error_sum += part.error_sum;
  total.rel_error_sum += part.rel_error_sum;
  total.accumulated_rel_error += part.accumulated_rel_error;
  total.abs_error_max = std::max(total.abs_error_max, part.abs_error_max);
  total.rel_error_max = std::max(total.rel_error_max, part.rel_error_max);
  total.actual_sum += part.actual_sum;
  total.golden_sum += part.golden_sum;
  total.actual_min = std::min(total.actual_min, part.actual_min);
  total.actual_max = std::max(total.actual_max, part.actual_max);
  total.golden_min = std::min(total.golden_min, part.golden_min);
  total.golden_max = std::max(total.golden_max, part.golden_max);
  total.failing += part.failing;
}

void merge_second(SecondPassSums& total, const SecondPassSums& part) {
  total.kl_p_sum += part.kl_p_sum;
  total.kl_q_sum += part.kl_q_sum;
  total.kl_p_log_ratio += part.kl_p_log_ratio;
  total.centered_actual_squares += part.centered_actual_squares;
  total.centered_golden_squares += part.centered_golden_squares;
  total.centered_error_squares += part.centered_error_squares;
  total.centered_error_golden += part.centered_error_golden;
}

// The K worst elements by one error, worst first (ties: lower index first).
class WorstElements {
 public:
  explicit WorstElements(double ElementSample::*key) : key_(key) {}
  // Elements not above this cannot enter.
  double threshold() const { return items_.size() < kWorstElements ? -1.0 : items_.back().*key_; }
  void offer(const ElementSample& sample) {
    if (!(sample.*key_ > threshold())) return;
    auto at =
        std::upper_bound(items_.begin(), items_.end(), sample,
                         [&](const ElementSample& a, const ElementSample& b) { return a.*key_ > b.*key_; });
    items_.insert(at, sample);
    if (items_.size() > kWorstElements) items_.pop_back();
  }
  const std::vector<ElementSample>& items() const { return items_; }

 private:
  double ElementSample::*key_;
  std::vector<ElementSample> items_;
};

std::vector<ElementSample> merge_worst(std::vector<ElementSample> all, double ElementSample::*key) {
  std::sort(all.begin(), all.end(), [&](const ElementSample& a, const ElementSample& b) {
    return a.*key != b.*key ? a.*key > b.*key : a.index < b.index;
  });
  if (all.size() > kWorstElements) all.resize(kWorstElements);
  return all;
}

// Channel/row/column of consecutive flat indices, advanced one element at a time.
class LayoutCursor {
 public:
  LayoutCursor(const ChannelLayout& layout, std::int64_t index) : layout_(layout) {
    const std::int64_t c = layout.channels, h = layout.rows, w = layout.cols;
    if (layout.channels_last) {
      channel_ = index % c;
      col_ = index / c % w;
      row_ = index / (c * w) % h;
    } else {
      col_ = index % w;
      row_ = index / w % h;
      channel_ = index / (w * h) % c;
    }
  }
  void advance() {
    if (layout_.channels_last) {
      if (++channel_ < layout_.channels) return;
      channel_ = 0;
      if (++col_ < layout_.cols) return;
      col_ = 0;
      if (++row_ == layout_.rows) row_ = 0;
    } else {
      if (++col_ < layout_.cols) return;
      col_ = 0;
      if (++row_ < layout_.rows) return;
      row_ = 0;
      if (++channel_ == layout_.channels) channel_ = 0;
    }
  }
  std::int64_t channel() const { return channel_; }
  std::int64_t row() const { return row_; }
  std::int64_t col() const { return col_; }

 private:
  const ChannelLayout& layout_;
  std::int64_t channel_ = 0, row_ = 0, col_ = 0;
};

struct Block {
  alignas(64) double golden[kBlockSize];
  alignas(64) double actual[kBlockSize];
  alignas(64) double abs_error[kBlockSize];
  std::int64_t index[kBlockSize];  // flat index of each entry after non-finite values were taken out
};

void note_nonfinite(NonFiniteCounts& counts, std::int64_t index, double value) {
  if (std::isnan(value)) {
    ++counts.nan;
    if (counts.first_nan.size() < NonFiniteCounts::kFirstPositions) counts.first_nan.push_back(index);
  } else {
    ++(value > 0 ? counts.pos_inf : counts.neg_inf);
    if (counts.first_inf.size() < NonFiniteCounts::kFirstPositions) counts.first_inf.push_back(index);
  }
}

void merge_nonfinite(NonFiniteCounts& total, const NonFiniteCounts& part) {
  total.nan += part.nan;
  total.pos_inf += part.pos_inf;
  total.neg_inf += part.neg_inf;
  auto merge_positions = [](std::vector<std::int64_t>& into, const std::vector<std::int64_t>& from) {
    into.insert(into.end(), from.begin(), from.end());
    std::sort(into.begin(), into.end());
    if (into.size() > NonFiniteCounts::kFirstPositions) into.resize(NonFiniteCounts::kFirstPositions);
  };
  merge_positions(total.first_nan, part.first_nan);
  merge_positions(total.first_inf, part.first_inf);
}

// The first pass's floating-point sums over one chunk. They are kept per chunk and added up in
// chunk order, so that the result does not depend on which thread took which chunk.
struct ChunkSums {
  FirstPassSums sums;
  std::int64_t finite_pairs = 0;
};

// One worker's share of the first pass: the chunks it takes, in increasing order.
class FirstPassWorker {
 public:
  FirstPassWorker(const ElementReader& golden, const ElementReader& actual, const ComparisonOptions& options,
                  const ChannelLayout& layout)
      : golden_(golden),
        actual_(actual),
        options_(options),
        layout_(layout),
        block_(std::make_unique<Block>()) {
    if (layout.enabled) {
      channel_failures_.assign(static_cast<std::size_t>(layout.channels), 0);
      row_failures_.assign(static_cast<std::size_t>(layout.rows), 0);
      col_failures_.assign(static_cast<std::size_t>(layout.cols), 0);
    }
  }

  ChunkSums run(std::int64_t begin, std::int64_t end) {
    chunk_ = ChunkSums{};
    const float* golden32 = golden_.float32_data();
    const float* actual32 = actual_.float32_data();
    for (std::int64_t start = begin; start < end; start += static_cast<std::int64_t>(kBlockSize)) {
      const auto count = static_cast<std::size_t>(std::min<std::int64_t>(kBlockSize, end - start));
      Block& b = *block_;
      FirstPassSums sums;
      if (golden32 != nullptr && actual32 != nullptr) {
        // Two float32 tensors: read in place; the block's float64 copies are made only if a
        // rarer step needs them (ensure_widened).
        sums = first_pass_block(golden32 + start, actual32 + start, count, options_.abs_tolerance,
                                options_.rel_tolerance, b.abs_error);
        widened_ = false;
      } else {
        read_block(start, count);
        sums = first_pass_block(b.golden, b.actual, count, options_.abs_tolerance, options_.rel_tolerance,
                                b.abs_error);
      }
      if (sums.finite()) {
        accept(sums, count, start, false);
        continue;
      }
      ensure_widened(start, count);
      const std::size_t kept = separate_nonfinite(start, count);
      if (kept == 0) continue;
      sums = first_pass_block(b.golden, b.actual, kept, options_.abs_tolerance, options_.rel_tolerance,
                              b.abs_error);
      accept(sums, kept, start, true);
    }
    return chunk_;
  }

  void merge_into(TensorStatistics& stats, std::vector<ElementSample>& abs_pool,
                  std::vector<ElementSample>& rel_pool) {
    stats.failing += failing_;
    stats.abs_failing += abs_failing_;
    stats.rel_failing += rel_failing_;
    stats.fp16_overflow += overflow_;
    stats.largest_fp16_overflow = std::max(stats.largest_fp16_overflow, largest_overflow_);
    stats.nan_mismatches += nan_mismatches_;
    stats.inf_mismatches += inf_mismatches_;
    if (first_failing_ && (!stats.first_failing || *first_failing_ < *stats.first_failing))
      stats.first_failing = first_failing_;
    if (first_overflow_ && (!stats.first_fp16_overflow || *first_overflow_ < *stats.first_fp16_overflow))
      stats.first_fp16_overflow = first_overflow_;
    merge_nonfinite(stats.golden_nonfinite, golden_nonfinite_);
    merge_nonfinite(stats.actual_nonfinite, actual_nonfinite_);
    abs_pool.insert(abs_pool.end(), worst_abs_.items().begin(), worst_abs_.items().end());
    rel_pool.insert(rel_pool.end(), worst_rel_.items().begin(), worst_rel_.items().end());
    abs_histogram_.flush();
    for (std::size_t i = 0; i < kOctaves; ++i) stats.abs_histogram[i] += abs_histogram_.totals()[i];
    auto add = [](std::vector<std::int64_t>& into, const std::vector<std::int64_t>& from) {
      if (into.empty()) into.assign(from.size(), 0);
      for (std::size_t i = 0; i < from.size(); ++i) into[i] += from[i];
    };
    add(stats.channel_failures, channel_failures_);
    add(stats.row_failures, row_failures_);
    add(stats.col_failures, col_failures_);
  }

 private:
  // Moves the finite pairs of the block to its front (recording their flat indices) and records
  // the others; returns how many finite pairs there are.
  std::size_t separate_nonfinite(std::int64_t start, std::size_t count) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const double g = block_->golden[i], a = block_->actual[i];
      const std::int64_t index = start + static_cast<std::int64_t>(i);
      if (std::isfinite(g) && std::isfinite(a)) {
        block_->golden[kept] = g;
        block_->actual[kept] = a;
        block_->index[kept] = index;
        ++kept;
        continue;
      }
      if (!std::isfinite(g)) note_nonfinite(golden_nonfinite_, index, g);
      if (!std::isfinite(a)) note_nonfinite(actual_nonfinite_, index, a);
      // An fp16 pipeline's overflow shows exactly here: a large golden, an Inf actual.
      if (std::isfinite(g) && std::fabs(g) > kFloat16Max) note_overflow(index, std::fabs(g));
      const bool same = (std::isnan(g) && std::isnan(a)) || (std::isinf(g) && g == a);
      if (!same) {
        ++(std::isnan(g) || std::isnan(a) ? nan_mismatches_ : inf_mismatches_);
        ++failing_;
        note_failure_at(index);
      }
    }
    return kept;
  }

  void read_block(std::int64_t start, std::size_t count) {
    golden_.read(start, count, block_->golden);
    actual_.read(start, count, block_->actual);
    widened_ = true;
  }

  // The block's golden and actual values as float64 (block_->golden/actual), for the steps that
  // look at single elements.
  void ensure_widened(std::int64_t start, std::size_t count) {
    if (!widened_) read_block(start, count);
  }

  std::int64_t flat_index(std::size_t i, std::int64_t start, bool compacted) const {
    return compacted ? block_->index[i] : start + static_cast<std::int64_t>(i);
  }

  // Takes in the sums of a block's `count` finite pairs (the first `count` entries of the block).
  void accept(const FirstPassSums& sums, std::size_t count, std::int64_t start, bool compacted) {
    const Block& b = *block_;
    merge_first(chunk_.sums, sums, chunk_.finite_pairs == 0);
    chunk_.finite_pairs += static_cast<std::int64_t>(count);
    failing_ += sums.failing;
    abs_histogram_.add(b.abs_error, count);
    if (sums.failing > 0) {
      ensure_widened(start, count);
      note_failures(count, start, compacted);
    }
    if (sums.golden_max > kFloat16Max || sums.golden_min < -kFloat16Max) {
      ensure_widened(start, count);
      for (std::size_t i = 0; i < count; ++i)
        if (std::fabs(b.golden[i]) > kFloat16Max)
          note_overflow(flat_index(i, start, compacted), std::fabs(b.golden[i]));
    }
    offer_worst(worst_abs_, sums.abs_error_max, count, start, compacted);
    offer_worst(worst_rel_, sums.rel_error_max, count, start, compacted);
  }

  ElementSample sample(std::size_t i, std::int64_t start, bool compacted) const {
    const Block& b = *block_;
    return {flat_index(i, start, compacted), b.golden[i], b.actual[i], b.abs_error[i],
            relative_error(b.abs_error[i], b.golden[i])};
  }

  void offer_worst(WorstElements& worst, double block_max, std::size_t count, std::int64_t start,
                   bool compacted) {
    if (!(block_max > worst.threshold())) return;
    ensure_widened(start, count);
    for (std::size_t i = 0; i < count; ++i) worst.offer(sample(i, start, compacted));
  }

  // For a block with failures: which criterion each failing element breaks, and where it is.
  void note_failures(std::size_t count, std::int64_t start, bool compacted) {
    const Block& b = *block_;
    auto fails = [&](std::size_t i) {
      const bool abs_fails = b.abs_error[i] > options_.abs_tolerance;
      const bool rel_fails = relative_error(b.abs_error[i], b.golden[i]) > options_.rel_tolerance;
      abs_failing_ += abs_fails ? 1 : 0;
      rel_failing_ += rel_fails ? 1 : 0;
      return abs_fails || rel_fails;
    };
    if (!layout_.enabled || compacted) {
      for (std::size_t i = 0; i < count; ++i)
        if (fails(i)) note_failure_at(flat_index(i, start, compacted));
      return;
    }
    LayoutCursor cursor(layout_, start);  // consecutive indices: no division per element
    for (std::size_t i = 0; i < count; ++i, cursor.advance()) {
      if (!fails(i)) continue;
      if (!first_failing_) first_failing_ = start + static_cast<std::int64_t>(i);
      count_at(cursor);
    }
  }

  void note_overflow(std::int64_t index, double golden_abs) {
    ++overflow_;
    if (!first_overflow_ || index < *first_overflow_) first_overflow_ = index;
    largest_overflow_ = std::max(largest_overflow_, golden_abs);
  }

  void note_failure_at(std::int64_t index) {
    if (!first_failing_ || index < *first_failing_) first_failing_ = index;
    if (layout_.enabled) count_at(LayoutCursor(layout_, index));
  }

  void count_at(const LayoutCursor& at) {
    ++channel_failures_[static_cast<std::size_t>(at.channel())];
    ++row_failures_[static_cast<std::size_t>(at.row())];
    ++col_failures_[static_cast<std::size_t>(at.col())];
  }

  const ElementReader& golden_;
  const ElementReader& actual_;
  const ComparisonOptions& options_;
  const ChannelLayout& layout_;
  std::unique_ptr<Block> block_;
  bool widened_ = false;  // whether block_->golden/actual hold the current block
  ChunkSums chunk_;  // of the chunk being run
  std::int64_t failing_ = 0, nan_mismatches_ = 0, inf_mismatches_ = 0;
  std::optional<std::int64_t> first_failing_, first_overflow_;
  std::int64_t overflow_ = 0, abs_failing_ = 0, rel_failing_ = 0;
  double largest_overflow_ = 0;
  NonFiniteCounts golden_nonfinite_, actual_nonfinite_;
  WorstElements worst_abs_{&ElementSample::abs_error}, worst_rel_{&ElementSample::rel_error};
  InterleavedHistogram abs_histogram_;
  std::vector<std::int64_t> channel_failures_, row_failures_, col_failures_;
};

SecondPassConstants second_pass_constants(const TensorStatistics& stats) {
  const FirstPassSums& f = stats.first;
  const auto n = static_cast<double>(stats.finite_pairs);
  SecondPassConstants c;
  c.actual_mean = f.actual_sum / n;
  c.golden_mean = f.golden_sum / n;
  c.error_mean = f.error_sum / n;
  // msaccucmp: (x - min) / (max - min), or x itself when max == min.
  const double actual_range = f.actual_max - f.actual_min, golden_range = f.golden_max - f.golden_min;
  if (actual_range != 0) {
    c.actual_offset = f.actual_min;
    c.actual_scale = 1.0 / actual_range;
  }
  if (golden_range != 0) {
    c.golden_offset = f.golden_min;
    c.golden_scale = 1.0 / golden_range;
  }
  c.normalised =
      actual_range > 0 && golden_range > 0 && std::isfinite(actual_range) && std::isfinite(golden_range);
  return c;
}

SecondPassSums second_pass_chunk(const ElementReader& golden, const ElementReader& actual, std::int64_t begin,
                                 std::int64_t end, const SecondPassConstants& constants) {
  auto block = std::make_unique<Block>();
  SecondPassSums total;
  // Two float32 tensors are read in place (float32_block_kernels.hpp) when the fast logarithm applies.
  const float* golden32 = constants.normalised ? golden.float32_data() : nullptr;
  const float* actual32 = constants.normalised ? actual.float32_data() : nullptr;
  using DoublePass = SecondPassSums (*)(const double*, const double*, std::size_t, const SecondPassConstants&);
  const DoublePass pass = constants.normalised ? DoublePass{second_pass_block} : second_pass_block_exact_log;
  for (std::int64_t start = begin; start < end; start += static_cast<std::int64_t>(kBlockSize)) {
    auto count = static_cast<std::size_t>(std::min<std::int64_t>(kBlockSize, end - start));
    bool widened = false;
    auto widen_block = [&] {
      golden.read(start, count, block->golden);
      actual.read(start, count, block->actual);
      widened = true;
    };
    SecondPassSums sums;
    if (golden32 != nullptr && actual32 != nullptr) {
      sums = second_pass_block(golden32 + start, actual32 + start, count, constants);
    } else {
      widen_block();
      sums = pass(block->golden, block->actual, count, constants);
    }
    if (!sums.finite()) {  // drop the non-finite pairs, as the first pass did
      if (!widened) widen_block();
      std::size_t kept = 0;
      for (std::size_t i = 0; i < count; ++i)
        if (std::isfinite(block->golden[i]) && std::isfinite(block->actual[i])) {
          block->golden[kept] = block->golden[i];
          block->actual[kept] = block->actual[i];
          ++kept;
        }
      count = kept;
      if (count == 0) continue;
      sums = pass(block->golden, block->actual, count, constants);
    }
    merge_second(total, sums);
  }
  return total;
}

}  // namespace

double TensorStatistics::squared_error_sum() const {
  const double n = static_cast<double>(finite_pairs), mean = first.error_sum / n;
  return second.centered_error_squares + n * mean * mean;
}

double TensorStatistics::actual_squares() const {
  const double n = static_cast<double>(finite_pairs), mean = first.actual_sum / n;
  return second.centered_actual_squares + n * mean * mean;
}

double TensorStatistics::golden_squares() const {
  const double n = static_cast<double>(finite_pairs), mean = first.golden_sum / n;
  return second.centered_golden_squares + n * mean * mean;
}

double TensorStatistics::cross() const {
  // sum (a - ma)(g - mg) = sum (e - me)(g - mg) + sum (g - mg)^2, with e = a - g.
  const double n = static_cast<double>(finite_pairs);
  return second.centered_error_golden + second.centered_golden_squares +
         first.actual_sum * first.golden_sum / n;
}

ChannelLayout ChannelLayout::of(const TensorView& view) {
  ChannelLayout layout;
  if (view.rank() != 4 || view.numel() == 0) return layout;
  const Shape& s = view.shape();
  layout.enabled = true;
  layout.channels_last = view.format() == Format::NHWC;
  layout.channels = layout.channels_last ? s[3] : s[1];
  layout.rows = layout.channels_last ? s[1] : s[2];
  layout.cols = layout.channels_last ? s[2] : s[3];
  return layout;
}

TensorStatistics gather_statistics(const TensorView& golden, const TensorView& actual,
                                   const ComparisonOptions& options, const ChannelLayout& layout) {
  TensorStatistics stats;
  stats.elements = golden.numel();
  if (stats.elements == 0) return stats;
  const ElementReader golden_reader(golden), actual_reader(actual);
  const int workers = worker_count(stats.elements);

  std::vector<std::unique_ptr<FirstPassWorker>> first(static_cast<std::size_t>(workers));
  for (auto& worker : first)
    worker = std::make_unique<FirstPassWorker>(golden_reader, actual_reader, options, layout);
  const auto chunks = static_cast<std::size_t>(shared_chunk_count(stats.elements));
  std::vector<ChunkSums> first_sums(chunks);
  run_shared_chunks(stats.elements, workers, [&](int w, std::int64_t chunk, std::int64_t begin, std::int64_t end) {
    first_sums[static_cast<std::size_t>(chunk)] = first[static_cast<std::size_t>(w)]->run(begin, end);
  });
  for (const ChunkSums& part : first_sums) {
    if (part.finite_pairs == 0) continue;  // its extremes are not values of the tensor
    merge_first(stats.first, part.sums, stats.finite_pairs == 0);
    stats.finite_pairs += part.finite_pairs;
  }
  std::vector<ElementSample> abs_pool, rel_pool;
  for (const auto& worker : first) worker->merge_into(stats, abs_pool, rel_pool);
  stats.worst_abs = merge_worst(std::move(abs_pool), &ElementSample::abs_error);
  stats.worst_rel = merge_worst(std::move(rel_pool), &ElementSample::rel_error);
  if (stats.finite_pairs == 0) return stats;

  const SecondPassConstants constants = second_pass_constants(stats);
  std::vector<SecondPassSums> second(chunks);
  run_shared_chunks(stats.elements, workers, [&](int, std::int64_t chunk, std::int64_t begin, std::int64_t end) {
    second[static_cast<std::size_t>(chunk)] = second_pass_chunk(golden_reader, actual_reader, begin, end, constants);
  });
  for (const auto& part : second) merge_second(stats.second, part);
  return stats;
}

}  // namespace asc::validator
