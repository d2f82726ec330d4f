#include "conv/channels_last_conv.hpp"

#if defined(ASC_HAVE_ONEDNN)
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include <dnnl.hpp>

#include <asc/sdk/parallel.hpp>

#include "common/onednn_runtime.hpp"
#include "common/uninitialized_tensor.hpp"
#include "conv/conv_common.hpp"
#include "conv/pointwise_conv.hpp"
#endif

namespace asc::ops {

#if defined(ASC_HAVE_ONEDNN)
namespace {

using dnnl::memory;

// The rows the dilated kernel spans along Window3 axis 1 (height) or 2 (width).
std::int64_t kernel_extent(const Window3& w, int axis) { return (w.kernel[axis] - 1) * w.dilation[axis] + 1; }

// One thread's share of the output: images [image, image + images), output rows [row, row + rows),
// output channels [channel, channel + channels).
struct Piece {
  std::int64_t image = 0, images = 0, row = 0, rows = 0, channel = 0, channels = 0;
  bool all_channels(const ConvGeometry& g) const { return channels == g.out_channels; }
};

// The input rows a piece reads, and the zero rows the padding adds above and below them: a band
// of rows is itself a convolution, whose padding is the original one only at the image's edges.
struct PieceInput {
  std::int64_t row = 0, rows = 0, pad_top = 0, pad_bottom = 0;
};

// Several images are one tensor whose image stride is the whole input's, so they keep every input
// row, even rows below the last window (a stride that does not divide the input leaves up to
// stride - 1 of them unread: oneDNN's output size rounds down, as ONNX's does).
PieceInput piece_input(const Window3& w, const Piece& piece) {
  const std::int64_t first = piece.row * w.stride[1] - w.pad_begin[1];
  const std::int64_t end = (piece.row + piece.rows - 1) * w.stride[1] - w.pad_begin[1] + kernel_extent(w, 1);
  const std::int64_t row = std::max<std::int64_t>(first, 0);
  const std::int64_t row_end = piece.images > 1 ? w.input[1] : std::min(end, w.input[1]);
  return {row, row_end - row, row - first, std::max<std::int64_t>(end - w.input[1], 0)};
}

// Output channels are split in multiples of the widest vector's floats, which oneDNN's kernels
// compute together.
constexpr std::int64_t kChannelBlock = 16;

// Whether an image's share is better cut along the output channels than along the rows: when the
// rows do not divide evenly between the parts (a 7x7 output on two threads is 3 + 4 rows) and
// the weights are the larger read (M * KH * KW > H * W: the deep layers of a CNN at batch 1), so
// each thread reads only its part of them. Where the rows divide evenly, bands measured as fast
// as blocks, which pay for copying their buffer into place (BENCHMARKS.md, session 12). Grouped
// convolutions are always cut along the rows.
bool split_channels(const ConvGeometry& g, std::int64_t parts_per_image) {
  const Window3& w = g.window;
  return g.group == 1 && w.output[1] % parts_per_image != 0 &&
         (g.out_channels + kChannelBlock - 1) / kChannelBlock >= parts_per_image &&
         g.out_channels * w.kernel[1] * w.kernel[2] > w.input[1] * w.input[2];
}

// Whether a convolution is computed with Winograd's algorithm (oneDNN's jit_fp32_wino on
// AVX-512: F(2x2, 3x3) or F(4x4, 3x3), 2.25-4x fewer multiplications) rather than directly: 3x3,
// stride 1, 64 to 128 channels in and out, and at least 784 output pixels an image
// (BENCHMARKS.md, session 13).
// - Speed, inside ResNet-50 with the layout reorders: the convolutions of 56x56 and 28x28 outputs
//   (1x1 ones included) took 10-16 % less time in all at batch 1 and 8. Pieces of 98 pixels (the
//   14x14 layers' bands at batch 1) were 3 % slower, and below 16-32 channels the transforms
//   dominate.
// - Memory: the transformed weights are up to 4x the direct layout's, and each thread needs a
//   scratchpad of 8-10 MB at 128 channels, 20 MB at 256 and 46 MB at 512. With the 256- and
//   512-channel layers too (14-16 % faster again at batch 8), ResNet-50 b8's peak RSS went from
//   337-369 to 514 MiB, past ONNX Runtime's 396.
// - Rounding: its error against a float64 sum is the direct kernel's order (1e-7 to 1e-6 of the
//   sum of |products|), but it depends on where the tiles fall and on the kernel oneDNN picks
//   for a piece's shape. So these layers are cut into the same pieces whatever the thread count
//   and batch (winograd_bands): a run's outputs do not depend on either, as the direct kernel's
//   do not.
bool winograd_suits(const ConvGeometry& g) {
  const Window3& w = g.window;
  return g.group == 1 && w.kernel[1] == 3 && w.kernel[2] == 3 && w.stride[1] == 1 && w.stride[2] == 1 &&
         w.dilation[1] == 1 && w.dilation[2] == 1 && g.in_channels >= 64 && g.out_channels >= 64 &&
         g.in_channels * g.out_channels <= 128 * 128 && w.output[1] * w.output[2] >= 4 * 196;
}

// The bands of rows an image of a Winograd layer is cut into: one per logical CPU of the machine
// (a constant, unlike the run's thread count), each of at least 14 rows. Inside ResNet-50 at
// batch 1 on 2 threads, 4 bands an image kept only half of 2 bands' gain: each band reads the
// transformed weights and reorders its halo rows again.
std::int64_t winograd_bands(const ConvGeometry& g) {
  static const std::int64_t cpus = std::max(std::thread::hardware_concurrency(), 1U);
  return std::clamp<std::int64_t>(cpus, 1, std::max<std::int64_t>(g.window.output[1] / 14, 1));
}

// The output a piece should stay within: half of a 2 MB L2, so that the epilogue run on each
// piece (a residual and ReLU, the NPU simulator's rounding to fp16) finds it still in L2 rather
// than in L3 or memory, with room for the piece's input rows and weights.
constexpr std::int64_t kPieceOutputBytes = std::int64_t{1} << 20;

// The bands of rows that keep an image's pieces within kPieceOutputBytes. Inside ResNet-50 at
// batch 8 (an image's 56x56x256 output is 3.2 MB; before, each thread's piece was 4 whole
// images), the stem and the 56x56 and 28x28 layers with outputs over 1 MB went from 0.47-0.55
// to 0.44-0.52 of the time of the 14x14 and 7x7 layers, in each of 6 alternations; batch 1 and
// MobileNetV2 did not change (BENCHMARKS.md, session 15).
std::int64_t cache_bands(const ConvGeometry& g) {
  const Window3& w = g.window;
  const std::int64_t image_bytes = w.output[1] * w.output[2] * g.out_channels * std::int64_t{sizeof(float)};
  return std::min((image_bytes + kPieceOutputBytes - 1) / kPieceOutputBytes, w.output[1]);
}

// Bands of rows, `bands` an image.
std::vector<Piece> image_bands(const ConvGeometry& g, std::int64_t bands) {
  const std::int64_t out_rows = g.window.output[1];
  std::vector<Piece> pieces;
  for (std::int64_t n = 0; n < g.batch; ++n)
    for (std::int64_t b = 0; b < bands; ++b) {
      const std::int64_t begin = out_rows * b / bands, end = out_rows * (b + 1) / bands;
      if (end > begin) pieces.push_back({n, 1, begin, end - begin, 0, g.out_channels});
    }
  return pieces;
}

// Winograd's layers in winograd_bands() bands of rows an image, whatever the thread count. Other
// layers: each image's output in about as many parts in all as threads when there are fewer
// images than threads: bands of rows, or blocks of output channels (split_channels); bands of
// rows too where an image's output is larger than kPieceOutputBytes (cache_bands); otherwise
// whole images per thread. A band that would read no input row at all (all padding) falls back
// to whole images.
std::vector<Piece> split_output(const ConvGeometry& g, int threads) {
  if (winograd_suits(g)) return image_bands(g, winograd_bands(g));
  const std::int64_t out_rows = g.window.output[1];
  const std::int64_t parts = std::max(threads, 1);
  std::vector<Piece> pieces;
  if (g.batch < parts && split_channels(g, (parts + g.batch - 1) / g.batch)) {
    const std::int64_t blocks = (g.out_channels + kChannelBlock - 1) / kChannelBlock;
    const std::int64_t per_image = (parts + g.batch - 1) / g.batch;
    for (std::int64_t n = 0; n < g.batch; ++n)
      for (std::int64_t b = 0; b < per_image; ++b) {
        const std::int64_t begin = std::min(blocks * b / per_image * kChannelBlock, g.out_channels);
        const std::int64_t end = std::min(blocks * (b + 1) / per_image * kChannelBlock, g.out_channels);
        if (end > begin) pieces.push_back({n, 1, 0, out_rows, begin, end - begin});
      }
    return pieces;
  }
  const std::int64_t thread_bands =
      g.batch < parts ? std::min<std::int64_t>((parts + g.batch - 1) / g.batch, out_rows) : 1;
  if (const std::int64_t bands = std::max(thread_bands, cache_bands(g)); bands > 1) {
    pieces = image_bands(g, bands);
    const bool every_band_reads = std::all_of(pieces.begin(), pieces.end(), [&](const Piece& piece) {
      return piece_input(g.window, piece).rows > 0;
    });
    if (every_band_reads) return pieces;
    pieces.clear();
  }
  const std::int64_t image_parts = std::min(parts, g.batch);
  for (std::int64_t p = 0; p < image_parts; ++p) {
    const std::int64_t begin = g.batch * p / image_parts, end = g.batch * (p + 1) / image_parts;
    if (end > begin) pieces.push_back({begin, end - begin, 0, out_rows, 0, g.out_channels});
  }
  return pieces;
}

struct PiecePrimitive {
  dnnl::convolution_forward primitive;
  memory::desc src, dst, bias, scratchpad;  // src and dst as the piece's rows lie in the tensors
  memory weights;  // the piece's output channels, reordered into the layout the primitive chose
  // Set when the primitive computes in a layout of its own (Winograd's nChw16c): its input is
  // reordered into `layout_src` and its output, from `layout_dst`, back into place.
  std::optional<dnnl::reorder> to_layout, from_layout;
  memory::desc layout_src, layout_dst;
};

// What one input shape and thread count runs: each piece with its input rows and primitive.
struct ConvSchedule {
  std::vector<Piece> pieces;
  std::vector<PieceInput> inputs;
  std::vector<std::shared_ptr<const PiecePrimitive>> primitives;
  // Every piece's primitive adds what dst holds to its results (a sum post-op): the output is
  // computed in place over an addend (OutputEpilogueSteps::addend_reusable).
  bool sums = false;
};

// The weights of `channels` output channels (all of them, or a block when group == 1).
memory::dims weight_dims(const ConvGeometry& g, std::int64_t channels) {
  const Window3& w = g.window;
  if (g.group == 1) return {channels, g.in_channels, w.kernel[1], w.kernel[2]};
  return {g.group, g.out_channels / g.group, g.in_channels / g.group, w.kernel[1], w.kernel[2]};
}

}  // namespace

// Primitives and reordered weights of one Conv node, built on first use of each shape. Kept in
// the node's KernelState when the weights are constant; two runs may use it at once.
class ConvPrimitives {
 public:
  // nullptr when oneDNN has only its reference kernel for some piece (grouped convolutions of
  // unusual shapes): the caller then runs its own im2col path, which is faster than that.
  // With `sum`, a schedule that sums into the output where every piece can (whole output rows,
  // direct convolution); ConvSchedule::sums says whether it does.
  std::shared_ptr<const ConvSchedule> schedule(const ConvGeometry& g, const Tensor& weights, bool has_bias,
                                               int threads, bool sum) {
    std::lock_guard lock(mutex_);
    forget_other_weights(weights);
    const std::vector<std::int64_t> key{g.batch, g.window.input[1], g.window.input[2], threads, sum};
    auto& schedule = schedules_[key];
    if (schedule == nullptr) {
      if (sum) schedule = make_schedule(g, weights, has_bias, threads, true);
      if (schedule == nullptr) schedule = make_schedule(g, weights, has_bias, threads, false);
    }
    return schedule;
  }

  // The weights packed for pointwise_conv (a 1x1 layer on an AVX-512 machine).
  std::shared_ptr<const PointwiseWeights> pointwise(const ConvGeometry& g, const Tensor& weights) {
    std::lock_guard lock(mutex_);
    forget_other_weights(weights);
    if (pointwise_ == nullptr) pointwise_ = std::make_shared<const PointwiseWeights>(pack_pointwise_weights(g, weights));
    return pointwise_;
  }

 private:
  void forget_other_weights(const Tensor& weights) {
    if (weights.view().raw() == weights_data_) return;
    schedules_.clear();  // another weights tensor: nothing kept fits it
    primitives_.clear();
    packed_.clear();
    pointwise_.reset();
    weights_data_ = weights.view().raw();
  }

  // nullptr when some piece has no primitive (with `sum`: none that sums).
  std::shared_ptr<const ConvSchedule> make_schedule(const ConvGeometry& g, const Tensor& weights, bool has_bias,
                                                    int threads, bool sum) {
    auto schedule = std::make_shared<ConvSchedule>();
    schedule->pieces = split_output(g, threads);
    schedule->sums = sum;
    if (sum && (winograd_suits(g) || !std::all_of(schedule->pieces.begin(), schedule->pieces.end(),
                                                  [&](const Piece& piece) { return piece.all_channels(g); })))
      return nullptr;
    for (const Piece& piece : schedule->pieces) {
      const PieceInput input = piece_input(g.window, piece);
      auto& primitive = primitives_[{piece.images, input.rows, input.pad_top, input.pad_bottom, piece.rows,
                                     piece.channel, piece.channels, sum}];
      if (primitive == nullptr) primitive = make_primitive(g, piece, input, weights, has_bias, sum);
      if (primitive == nullptr) return nullptr;
      schedule->inputs.push_back(input);
      schedule->primitives.push_back(primitive);
    }
    return schedule;
  }

  std::shared_ptr<const PiecePrimitive> make_primitive(const ConvGeometry& g, const Piece& piece,
                                                       const PieceInput& input, const Tensor& weights,
                                                       bool has_bias, bool sum) {
    const Window3& w = g.window;
    const auto f32 = memory::data_type::f32;
    const memory::desc src({piece.images, g.in_channels, input.rows, w.input[2]}, f32, memory::format_tag::nhwc);
    // A block of channels is computed into a dense buffer of its own (run_piece copies it into
    // place): with the output's strides, oneDNN has only its reference kernel.
    const memory::desc dst({piece.images, piece.channels, piece.rows, w.output[2]}, f32, memory::format_tag::nhwc);
    const memory::desc any_weights(weight_dims(g, piece.channels), f32, memory::format_tag::any);
    const memory::desc bias({piece.channels}, f32, memory::format_tag::x);
    const memory::dim pad_right =
        std::max<std::int64_t>((w.output[2] - 1) * w.stride[2] + kernel_extent(w, 2) - w.pad_begin[2] - w.input[2], 0);
    const memory::dims strides{w.stride[1], w.stride[2]};
    const memory::dims dilates{w.dilation[1] - 1, w.dilation[2] - 1};
    const memory::dims pad_left{input.pad_top, w.pad_begin[2]};
    const memory::dims pad_right_dims{input.pad_bottom, pad_right};
    dnnl::primitive_attr attributes;
    attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (sum) {
      dnnl::post_ops post_ops;
      post_ops.append_sum(1.0f);
      attributes.set_post_ops(post_ops);
    }
    const auto describe = [&](dnnl::algorithm algorithm, const memory::desc& in, const memory::desc& out) {
      const auto kind = dnnl::prop_kind::forward_inference;
      const dnnl::convolution_forward::desc desc =
          has_bias ? dnnl::convolution_forward::desc(kind, algorithm, in, any_weights, bias, out, strides, dilates,
                                                     pad_left, pad_right_dims)
                   : dnnl::convolution_forward::desc(kind, algorithm, in, any_weights, out, strides, dilates,
                                                     pad_left, pad_right_dims);
      return dnnl::convolution_forward::primitive_desc(desc, attributes, onednn_engine());
    };
    auto primitive = std::make_shared<PiecePrimitive>();
    primitive->src = src;
    primitive->dst = dst;
    primitive->bias = bias;
    std::optional<dnnl::convolution_forward::primitive_desc> chosen;
    if (winograd_suits(g)) {
      try {
        const auto any = memory::format_tag::any;
        chosen = describe(dnnl::algorithm::convolution_winograd, memory::desc(src.dims(), f32, any),
                          memory::desc(dst.dims(), f32, any));
        primitive->layout_src = chosen->src_desc();
        primitive->layout_dst = chosen->dst_desc();
        primitive->to_layout = dnnl::reorder(dnnl::reorder::primitive_desc(
            onednn_engine(), src, onednn_engine(), primitive->layout_src));
        primitive->from_layout = dnnl::reorder(dnnl::reorder::primitive_desc(
            onednn_engine(), primitive->layout_dst, onednn_engine(), dst));
      } catch (const dnnl::error&) {  // no Winograd kernel for this machine or padding
        chosen.reset();
        primitive->to_layout.reset();
        primitive->from_layout.reset();
      }
    }
    try {
      if (!chosen) chosen = describe(dnnl::algorithm::convolution_direct, src, dst);
    } catch (const dnnl::error&) {
      if (sum) return nullptr;  // no kernel takes the post-op: the caller goes without
      throw;
    }
    if (std::strncmp(chosen->impl_info_str(), "ref", 3) == 0) return nullptr;
    primitive->primitive = dnnl::convolution_forward(*chosen);
    primitive->scratchpad = chosen->scratchpad_desc();
    primitive->weights = packed_weights(g, chosen->weights_desc(), weights, piece.channel);
    return primitive;
  }

  // The weights of the output channels from `channel` on, as many as `layout` holds, reordered
  // once per layout and first channel (usually one layout, and one block per thread).
  memory packed_weights(const ConvGeometry& g, const memory::desc& layout, const Tensor& weights,
                        std::int64_t channel) {
    for (const PackedWeights& packed : packed_)
      if (packed.first_channel == channel && packed.weights.get_desc() == layout) return packed.weights;
    const auto plain = g.group == 1 ? memory::format_tag::oihw : memory::format_tag::goihw;
    const memory::dims dims = layout.dims();
    const std::int64_t per_channel = weights.numel() / g.out_channels;
    memory source({dims, memory::data_type::f32, plain}, onednn_engine(),
                  const_cast<float*>(weights.data<float>() + channel * per_channel));
    const Tensor storage = uninitialized_tensor(DType::UInt8, {static_cast<std::int64_t>(layout.get_size())});
    memory packed(layout, onednn_engine(), storage.data<std::uint8_t>());
    dnnl::stream& stream = onednn_thread_stream();
    dnnl::reorder(source, packed).execute(stream, source, packed);
    stream.wait();
    packed_.push_back({channel, packed, storage});
    return packed;
  }

  std::mutex mutex_;
  const void* weights_data_ = nullptr;
  std::map<std::vector<std::int64_t>, std::shared_ptr<const ConvSchedule>> schedules_;
  std::map<std::vector<std::int64_t>, std::shared_ptr<const PiecePrimitive>> primitives_;
  // Reordered weights, in SDK buffers: large ones in huge pages, which oneDNN's own are not.
  struct PackedWeights {
    std::int64_t first_channel;
    memory weights;
    Tensor storage;  // weights' memory
  };
  std::vector<PackedWeights> packed_;
  std::shared_ptr<const PointwiseWeights> pointwise_;
};

namespace {

// Computes one piece into y, then runs `epilogue` (when not null) on the piece's elements: one
// range for whole images or a band of rows, a range per pixel for a block of channels. Where the
// schedule sums into y (which then held the addend of `steps`), the rest of the steps instead.
void run_piece(const ConvGeometry& g, const ConvSchedule& schedule, std::size_t index, const float* x,
               const float* bias, Tensor& output, const OutputEpilogue* epilogue, const OutputEpilogueSteps* steps) {
  const PiecePrimitive& primitive = *schedule.primitives[index];
  const Piece& piece = schedule.pieces[index];
  const PieceInput& input = schedule.inputs[index];
  float* y = output.data<float>();
  const Window3& w = g.window;
  const std::int64_t in_row = w.input[2] * g.in_channels;
  const std::int64_t out_row = w.output[2] * g.out_channels;
  const float* src = x + (piece.image * w.input[1] + input.row) * in_row;
  float* dst = y + (piece.image * w.output[1] + piece.row) * out_row;
  onednn_on_calling_thread();
  thread_local std::vector<std::byte> scratch;
  if (scratch.size() < primitive.scratchpad.get_size()) scratch.resize(primitive.scratchpad.get_size());
  thread_local std::vector<float> block;  // a block of channels' output (make_primitive)
  const std::int64_t pixels = piece.images * piece.rows * w.output[2];
  if (!piece.all_channels(g) && block.size() < static_cast<std::size_t>(pixels * piece.channels))
    block.resize(static_cast<std::size_t>(pixels * piece.channels));
  // The piece's memory objects: this thread's, re-pointed (onednn_thread_memory). The layout
  // reorders' own argument numbers keep them apart from the convolution's.
  constexpr int kPieceSrc = DNNL_ARG_FROM, kPieceDst = DNNL_ARG_TO;
  memory& piece_src = onednn_thread_memory(kPieceSrc, primitive.src, const_cast<float*>(src));
  memory& piece_dst = onednn_thread_memory(kPieceDst, primitive.dst, piece.all_channels(g) ? dst : block.data());
  thread_local std::vector<std::byte> layout_src_buffer, layout_dst_buffer;  // PiecePrimitive::to_layout
  memory conv_src = piece_src, conv_dst = piece_dst;
  if (primitive.to_layout) {
    layout_src_buffer.resize(std::max(layout_src_buffer.size(), primitive.layout_src.get_size()));
    layout_dst_buffer.resize(std::max(layout_dst_buffer.size(), primitive.layout_dst.get_size()));
    conv_src = onednn_thread_memory(DNNL_ARG_SRC, primitive.layout_src, layout_src_buffer.data());
    conv_dst = onednn_thread_memory(DNNL_ARG_DST, primitive.layout_dst, layout_dst_buffer.data());
  }
  std::unordered_map<int, memory> arguments{
      {DNNL_ARG_SRC, conv_src},
      {DNNL_ARG_WEIGHTS, primitive.weights},
      {DNNL_ARG_DST, conv_dst},
      {DNNL_ARG_SCRATCHPAD, onednn_thread_memory(DNNL_ARG_SCRATCHPAD, primitive.scratchpad, scratch.data())}};
  if (bias != nullptr)
    arguments.emplace(DNNL_ARG_BIAS, onednn_thread_memory(DNNL_ARG_BIAS, primitive.bias,
                                                          const_cast<float*>(bias + piece.channel)));
  dnnl::stream& stream = onednn_thread_stream();
  if (primitive.to_layout) primitive.to_layout->execute(stream, piece_src, conv_src);
  primitive.primitive.execute(stream, arguments);
  if (primitive.from_layout) primitive.from_layout->execute(stream, conv_dst, piece_dst);
  stream.wait();
  const std::int64_t first = dst - y;
  if (schedule.sums) {
    // The activation, then `then`, in runs that stay in L1.
    constexpr std::int64_t kRun = 4096;
    const std::int64_t end = first + pixels * g.out_channels;
    for (std::int64_t begin = first; begin < end; begin += kRun) {
      const std::int64_t last = std::min(end, begin + kRun);
      apply_epilogue_steps(*steps, y + begin, nullptr, last - begin);
      if (steps->then) steps->then(output, begin, last);
    }
    return;
  }
  if (piece.all_channels(g)) {
    if (epilogue != nullptr) (*epilogue)(output, first, first + pixels * g.out_channels);
    return;
  }
  const auto bytes = static_cast<std::size_t>(piece.channels) * sizeof(float);
  for (std::int64_t p = 0; p < pixels; ++p) {
    const std::int64_t begin = first + p * g.out_channels + piece.channel;
    std::memcpy(y + begin, block.data() + p * piece.channels, bytes);
    if (epilogue != nullptr) (*epilogue)(output, begin, begin + piece.channels);
  }
}

// x (float32, rank 4) channels-last: itself when it already is, else an NCHW tensor transposed
// on `threads`, a band of rows at a time. Tensor::channels_last() copies on one thread: for
// ResNet-50's NCHW input that was 0.3 ms of each batch-1 run with the other thread waiting.
Tensor channels_last_input(const Tensor& x, int threads) {
  if (x.is_channels_last()) return x;
  if (!x.is_contiguous()) return x.channels_last();
  const Shape& shape = x.shape();
  const std::int64_t channels = shape[1], rows = shape[2], width = shape[3], plane = rows * width;
  Tensor y = uninitialized_tensor(DType::Float32, shape, channels_last_strides(shape));
  const float* in = x.data<float>();
  float* out = y.data<float>();
  constexpr std::int64_t kRowsPerItem = 8;
  const std::int64_t bands = (rows + kRowsPerItem - 1) / kRowsPerItem;
  parallel_for(threads, shape[0] * bands, [&](std::int64_t item) {
    const std::int64_t n = item / bands, first = item % bands * kRowsPerItem;
    for (std::int64_t h = first; h < std::min(rows, first + kRowsPerItem); ++h) {
      const float* from = in + (n * channels * rows + h) * width;  // channel c's row at c * plane
      float* to = out + (n * rows + h) * width * channels;
      for (std::int64_t w = 0; w < width; ++w, to += channels)  // writes in order, C rows read along
        for (std::int64_t c = 0; c < channels; ++c) to[c] = from[c * plane + w];
    }
  });
  return y;
}

}  // namespace

bool channels_last_conv_available(const ConvGeometry& geometry, std::size_t spatial_rank, DType dtype) {
  const Window3& w = geometry.window;
  return dtype == DType::Float32 && spatial_rank == 2 && geometry.batch > 0 && geometry.in_channels > 0 &&
         geometry.out_channels > 0 && w.output[1] > 0 && w.output[2] > 0 && w.pad_begin[1] < kernel_extent(w, 1) &&
         w.pad_begin[2] < kernel_extent(w, 2);
}

std::shared_ptr<ConvPrimitives> make_conv_primitives() { return std::make_shared<ConvPrimitives>(); }

Tensor convolve_channels_last(const ConvGeometry& geometry, const Tensor& x, const Tensor& w, const Tensor* bias,
                              int threads, ConvPrimitives* kept, const OutputEpilogue* epilogue,
                              const OutputEpilogueSteps* steps) {
  const Tensor weights = w.contiguous();
  ConvPrimitives for_this_call;
  ConvPrimitives& primitives = kept != nullptr ? *kept : for_this_call;
  const Shape y_shape = conv_output_shape(geometry, 2);
  const Shape y_strides = channels_last_strides(y_shape);
  if (pointwise_conv_suits(geometry, pointwise_conv_folds(epilogue, steps, y_shape, y_strides))) {
    const std::shared_ptr<const PointwiseWeights> packed = primitives.pointwise(geometry, weights);
    return pointwise_conv(geometry, channels_last_input(x, threads), *packed,
                          bias != nullptr ? bias->data<float>() : nullptr, threads, epilogue, steps);
  }
  onednn_on_calling_thread();
  // In place over an addend the caller gives up: oneDNN adds it as it stores (a sum post-op),
  // reading it where it writes, rather than in a second pass over each piece.
  const bool sum_into_addend = epilogue != nullptr && steps != nullptr && steps->addend != nullptr &&
                               steps->addend_reusable && steps->foldable_into(y_shape, y_strides);
  const std::shared_ptr<const ConvSchedule> schedule =
      primitives.schedule(geometry, weights, bias != nullptr, threads, sum_into_addend);
  if (schedule == nullptr) return {};
  const Tensor input = channels_last_input(x, threads);
  Tensor y = schedule->sums ? *steps->addend : uninitialized_tensor(DType::Float32, y_shape, y_strides);
  const float* x_data = input.data<float>();
  const float* bias_data = bias != nullptr ? bias->data<float>() : nullptr;
  parallel_for(threads, static_cast<std::int64_t>(schedule->pieces.size()), [&](std::int64_t i) {
    const auto index = static_cast<std::size_t>(i);
    run_piece(geometry, *schedule, index, x_data, bias_data, y, epilogue, steps);
  });
  return y;
}

#else

bool channels_last_conv_available(const ConvGeometry&, std::size_t, DType) { return false; }

class ConvPrimitives {};

std::shared_ptr<ConvPrimitives> make_conv_primitives() { return std::make_shared<ConvPrimitives>(); }

Tensor convolve_channels_last(const ConvGeometry&, const Tensor&, const Tensor&, const Tensor*, int, ConvPrimitives*,
                              const OutputEpilogue*, const OutputEpilogueSteps*) {
  return {};
}

#endif

}  // namespace asc::ops
