// The AVX-512 tiles of pointwise_conv (pointwise_conv.hpp). Only this file is compiled for
// AVX-512F (on x86-64 builds: ASC_POINTWISE_AVX512); pointwise_conv_suits checks the CPU before
// anything here runs.
#include "conv/pointwise_conv.hpp"

#if defined(ASC_POINTWISE_AVX512)
#include <immintrin.h>

#include <algorithm>

namespace asc::ops::detail {
namespace {

// How far ahead each input row is fetched, in floats: four cache lines, about 900 cycles of FMAs
// at 64 channels.
constexpr std::int64_t kPrefetchAhead = 64;

using Activation = OutputEpilogueSteps::Activation;

// What a tile does to its sums as it stores them (PointwiseJob): the addend at the same offsets
// as y (nullptr: none), the activation, then the rounding to fp16.
struct TileStore {
  const float* addend = nullptr;
  Activation activation = Activation::None;
  __m512 low, high;
  bool round_to_f16 = false;
};

// The activation as the Relu and Clip kernels (and asc.FusedConv's in-place epilogue) compute it,
// with compares rather than max/min instructions, whose NaN rule would turn a NaN into the bound:
// Relu is `v < 0 ? 0 : v`, Clip `min(max(v, low), high)` as std::max and std::min.
inline __m512 activate(__m512 v, const TileStore& store) {
  switch (store.activation) {
    case Activation::Relu: {
      const __m512 zero = _mm512_setzero_ps();
      return _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ), zero);
    }
    case Activation::Clip: {
      const __m512 raised = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, store.low, _CMP_LT_OQ), store.low);
      return _mm512_mask_mov_ps(raised, _mm512_cmp_ps_mask(store.high, raised, _CMP_LT_OQ), store.high);
    }
    case Activation::None:
      break;
  }
  return v;
}

// To the nearest float16 (ties to even) and back, as the SDK's round_to_f16.
inline __m512 stored(__m512 v, const TileStore& store) {
  const __m512 activated = activate(v, store);
  return store.round_to_f16 ? _mm512_cvtph_ps(_mm512_cvtps_ph(activated, _MM_FROUND_TO_NEAREST_INT)) : activated;
}

// y[r * ldy + (0 .. 16 * VECTORS)] = bias + sum over k of a[r * lda + k] * panel[k][...] for
// r < ROWS, then + the addend, the activation and the rounding (`store`); the last vector stores
// only the lanes in `last_mask` (the panel's channels past M are not written). 7 x 4
// accumulators, the panel's row and the broadcast want 33 registers: GCC keeps one accumulator
// on the stack, which 6 x 4 avoids (pointwise_tile_rows).
template <int ROWS, int VECTORS>
void tile(const float* a, std::int64_t lda, const float* panel, std::int64_t depth, const float* bias,
          float* y, std::int64_t ldy, __mmask16 last_mask, const char* fetch, std::int64_t fetch_lines,
          const TileStore& store) {
  // The addend comes from an earlier layer's output, in L3 or memory: fetched now, it is in L1
  // by the time the sums are.
  if (store.addend != nullptr)
    for (int r = 0; r < ROWS; ++r)
      for (int v = 0; v < VECTORS; ++v)
        _mm_prefetch(reinterpret_cast<const char*>(store.addend + r * ldy + 16 * v), _MM_HINT_T0);
  __m512 acc[ROWS][VECTORS];
  for (int r = 0; r < ROWS; ++r)
    for (int v = 0; v < VECTORS; ++v) acc[r][v] = _mm512_setzero_ps();
  const auto step = [&](std::int64_t k) {
    __m512 b[VECTORS];
    for (int v = 0; v < VECTORS; ++v) b[v] = _mm512_load_ps(panel + k * kPointwisePanel + 16 * v);
    for (int r = 0; r < ROWS; ++r) {
      const __m512 broadcast = _mm512_set1_ps(a[r * lda + k]);
      for (int v = 0; v < VECTORS; ++v) acc[r][v] = _mm512_fmadd_ps(broadcast, b[v], acc[r][v]);
    }
  };
  // Each row is a short stream (a few KB) that the hardware prefetchers barely pick up before it
  // ends, and the rows come from the previous layer's output in L3 or memory: fetch each row
  // kPrefetchAhead floats ahead, a cache line per 16 steps. Past a row's end this fetches the
  // next row's start (the next tile's, for the last row), as the rows follow each other.
  //
  // Also `fetch_lines` cache lines from `fetch` into L2 (the next panel's share), spread over the
  // blocks of 16 steps: issued at once they stalled the core on a full request queue.
  const std::int64_t fetch_per_block = (fetch_lines * 16 + depth - 1) / depth;
  std::int64_t fetched = 0;
  std::int64_t k = 0;
  for (; k + 16 <= depth; k += 16) {
    for (const std::int64_t end = std::min(fetch_lines, fetched + fetch_per_block); fetched < end; ++fetched)
      _mm_prefetch(fetch + fetched * 64, _MM_HINT_T1);
    for (int r = 0; r < ROWS; ++r)
      _mm_prefetch(reinterpret_cast<const char*>(a + r * lda + k + kPrefetchAhead), _MM_HINT_T0);
    for (int i = 0; i < 16; ++i) {
      // The panel's rows 16 steps ahead: the first tile of a panel reads it from memory.
      for (int v = 0; v < VECTORS; ++v)
        _mm_prefetch(reinterpret_cast<const char*>(panel + (k + i + 16) * kPointwisePanel + 16 * v),
                     _MM_HINT_T0);
      step(k + i);
    }
  }
  for (; k < depth; ++k) step(k);
  for (; fetched < fetch_lines; ++fetched) _mm_prefetch(fetch + fetched * 64, _MM_HINT_T1);
  for (int v = 0; v < VECTORS; ++v) {
    const __mmask16 mask = v + 1 == VECTORS ? last_mask : __mmask16(0xFFFF);
    const __m512 add = bias != nullptr ? _mm512_maskz_loadu_ps(mask, bias + 16 * v) : _mm512_setzero_ps();
    for (int r = 0; r < ROWS; ++r) {
      __m512 sum = _mm512_add_ps(acc[r][v], add);
      if (store.addend != nullptr)
        sum = _mm512_add_ps(sum, _mm512_maskz_loadu_ps(mask, store.addend + r * ldy + 16 * v));
      _mm512_mask_storeu_ps(y + r * ldy + 16 * v, mask, stored(sum, store));
    }
  }
}

using TileFn = void (*)(const float*, std::int64_t, const float*, std::int64_t, const float*, float*,
                        std::int64_t, __mmask16, const char*, std::int64_t, const TileStore&);

template <int ROWS>
TileFn tile_for_vectors(int vectors) {
  switch (vectors) {
    case 1:
      return &tile<ROWS, 1>;
    case 2:
      return &tile<ROWS, 2>;
    case 3:
      return &tile<ROWS, 3>;
    default:
      return &tile<ROWS, 4>;
  }
}

TileFn tile_for(int rows, int vectors) {
  switch (rows) {
    case 1:
      return tile_for_vectors<1>(vectors);
    case 2:
      return tile_for_vectors<2>(vectors);
    case 3:
      return tile_for_vectors<3>(vectors);
    case 4:
      return tile_for_vectors<4>(vectors);
    case 5:
      return tile_for_vectors<5>(vectors);
    case 6:
      return tile_for_vectors<6>(vectors);
    default:
      return tile_for_vectors<7>(vectors);
  }
}

}  // namespace

void pointwise_tiles_avx512(const PointwiseJob& job, std::int64_t pixel_begin, std::int64_t pixel_end,
                            std::int64_t panel_begin, std::int64_t panel_end,
                            const std::function<void(std::int64_t, std::int64_t)>* tile_done) {
  const PointwiseWeights& w = *job.weights;
  const std::int64_t depth = w.in_channels, channels = w.out_channels;
  const std::int64_t out_plane = job.out_rows * job.out_cols;
  // Input pixels are evenly spaced within an output row (all the way when the stride is 1), so a
  // tile stops at the end of its output row unless the stride is 1.
  const bool dense = job.stride_h == 1 && job.stride_w == 1;
  const std::int64_t tile_pixels = pointwise_tile_rows(dense);
  const std::int64_t lda = job.stride_w * depth;
  TileStore store{nullptr, job.activation, _mm512_set1_ps(job.low), _mm512_set1_ps(job.high), job.round_to_f16};
  // The rows of output pixels [p, p + rows) for one panel, fetching `fetch_lines` of `fetch`.
  const auto run_tile = [&](std::int64_t p, int rows, std::int64_t panel, const char* fetch,
                            std::int64_t fetch_lines) {
    const std::int64_t first_channel = panel * kPointwisePanel;
    const std::int64_t width = std::min<std::int64_t>(kPointwisePanel, channels - first_channel);
    const int vectors = static_cast<int>((width + 15) / 16);
    const int tail = static_cast<int>(width - 16 * (vectors - 1));
    const std::int64_t n = p / out_plane, oh = p % out_plane / job.out_cols, ow = p % job.out_cols;
    const float* a =
        job.x + ((n * job.in_rows + oh * job.stride_h) * job.in_cols + ow * job.stride_w) * depth;
    store.addend = job.addend != nullptr ? job.addend + p * channels + first_channel : nullptr;
    tile_for(rows, vectors)(a, lda, w.panel_data.get() + panel * depth * kPointwisePanel, depth,
                            job.bias != nullptr ? job.bias + first_channel : nullptr,
                            job.y + p * channels + first_channel, channels,
                            static_cast<__mmask16>((1U << tail) - 1), fetch, fetch_lines, store);
  };
  const auto tile_rows = [&](std::int64_t p) {
    const std::int64_t row_end = dense ? pixel_end : std::min(pixel_end, p - p % job.out_cols + job.out_cols);
    return static_cast<int>(std::min(tile_pixels, row_end - p));
  };
  if (pixel_end - pixel_begin <= pointwise_item_pixels(dense)) {
    // A few pixels over all the panels (which stay in L2): each tile's output rows are written
    // whole, one after the other, rather than a panel's share at a time.
    for (std::int64_t p = pixel_begin; p < pixel_end;) {
      const int rows = tile_rows(p);
      for (std::int64_t panel = panel_begin; panel < panel_end; ++panel) run_tile(p, rows, panel, nullptr, 0);
      if (tile_done != nullptr) (*tile_done)(p, p + rows);
      p += rows;
    }
    return;
  }
  // Many pixels over a group of panels: a panel at a time, over all the pixels. The next panel is
  // fetched into L2 a share at each tile of this one, so that its first tile does not wait on
  // memory (the deep layers' weights, read from memory at every run).
  const std::int64_t panel_lines = depth * kPointwisePanel * std::int64_t{sizeof(float)} / 64;
  const std::int64_t tiles = (pixel_end - pixel_begin + tile_pixels - 1) / tile_pixels;
  const std::int64_t lines_per_tile = (panel_lines + tiles - 1) / tiles;
  for (std::int64_t panel = panel_begin; panel < panel_end; ++panel) {
    const char* next_panel =
        panel + 1 < panel_end
            ? reinterpret_cast<const char*>(w.panel_data.get() + (panel + 1) * depth * kPointwisePanel)
            : nullptr;
    std::int64_t next_line = 0;
    for (std::int64_t p = pixel_begin; p < pixel_end;) {
      const int rows = tile_rows(p);
      const std::int64_t fetch_lines =
          next_panel != nullptr ? std::min(lines_per_tile, panel_lines - next_line) : 0;
      run_tile(p, rows, panel, next_panel + next_line * 64, fetch_lines);
      next_line += fetch_lines;
      p += rows;
    }
  }
}

}  // namespace asc::ops::detail
#else
#include <asc/sdk/error.hpp>

namespace asc::ops::detail {

void pointwise_tiles_avx512(const PointwiseJob&, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                            const std::function<void(std::int64_t, std::int64_t)>*) {
  throw Error(ErrorCode::Internal, "pointwise_tiles_avx512: this build has no AVX-512 kernel");
}

}  // namespace asc::ops::detail
#endif
