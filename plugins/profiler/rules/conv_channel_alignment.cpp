// Seed: the Cube computes in 16x16 blocks, so input channels that are not a multiple of the block
// are padded ("输入通道数不为8的倍数时会产生padding开销"). C0 is 16 for 16-bit data and 32 for
// 8-bit data; the padding share of the Cube's work on that axis is 1 - C / ceil_C0(C).

#include <algorithm>

#include "analysis/op_categories.hpp"
#include "analysis/operand_layout.hpp"
#include "analysis/shape_text.hpp"
#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

constexpr std::size_t kConvChannelAlignmentListed = 6;

struct Misaligned {
  const OperatorFacts* op;
  std::int64_t channels, padded;
};

std::vector<Advice> check_conv_channel_alignment(const ProfileFacts& facts) {
  std::vector<Misaligned> found;
  double affected_us = 0;
  for (const OperatorFacts& op : facts.operators) {
    if (!is_conv_type(op.op_type)) continue;
    const auto channels = conv_input_channels(*op.first);
    if (!channels || *channels <= 0) continue;
    const std::int64_t block = cube_block_for(*op.first);
    if (*channels % block == 0) continue;
    found.push_back({&op, *channels, round_up(*channels, block)});
    affected_us += op.device_us;
  }
  if (found.empty()) return {};
  std::string list;
  for (std::size_t i = 0; i < std::min(kConvChannelAlignmentListed, found.size()); ++i) {
    const Misaligned& m = found[i];
    const double waste = 1.0 - static_cast<double>(m.channels) / static_cast<double>(m.padded);
    list += std::string(i ? "; " : "") + operator_label(m.op->op_name, m.op->op_type) + " input " +
            operand_item(m.op->first->input_shapes, 0) + ": C=" + std::to_string(m.channels) + " padded to " +
            std::to_string(m.padded) + ", " + format_percent(waste) + " of its Cube work on C is padding, " +
            format_us(m.op->device_us);
  }
  if (found.size() > kConvChannelAlignmentListed)
    list += "; and " + std::to_string(found.size() - kConvChannelAlignmentListed) + " more";
  return {{"conv_channel_alignment", "warning",
           std::to_string(found.size()) + " convolution(s) (" + time_and_share(affected_us, facts) +
               ") have input channels that are not a multiple of the Cube block (16; 32 for int8): " + list +
               ". Use channel counts that are multiples of 16 in the model, or let ATC handle small channels "
               "(--enable_small_channel=1) and fuse them (--enable_scope_fusion)"}};
}

}  // namespace

Rule conv_channel_alignment_rule() {
  return {
      "conv_channel_alignment",
      "a convolution's input channel count (from its NCHW/NHWC input shape) is not a multiple of the Cube "
      "block; NC1HWC0 shapes are already padded and cannot be judged",
      {{"cube_block", 16, "C0 for 16-bit inputs (32 for int8)"}},
      check_conv_channel_alignment};
}

}  // namespace asc::profiler
