#include "layout.hpp"

#include <algorithm>
#include <set>

namespace asc::npusim {
namespace {

constexpr std::int64_t kFractal = 16;      // M0 / N0 of the cube fractal
constexpr std::int64_t kSmallChannelC0 = 4;

std::int64_t blocks(std::int64_t size, std::int64_t block) { return (size + block - 1) / block; }

class LayoutChooser {
 public:
  LayoutChooser(const Graph& graph, const std::unordered_map<std::string, ValueInfo>& infos,
                const PrecisionResult& precision, const OpInfoTable& op_info, const CompileOptions& options)
      : graph_(graph), infos_(infos), precision_(precision), op_info_(op_info), options_(options) {}

  std::unordered_map<std::string, ValueLayout> run() {
    std::set<std::string> graph_io(graph_.inputs.begin(), graph_.inputs.end());
    graph_io.insert(graph_.outputs.begin(), graph_.outputs.end());
    auto activation_4d = [&](const std::string& value) {
      return !value.empty() && graph_io.count(value) == 0 && !graph_.is_initializer(value) && rank(value) == 4 &&
             is_floating(dtype(value));
    };
    auto matrix = [&](const std::string& value) { return !value.empty() && graph_io.count(value) == 0 && rank(value) >= 2; };

    // Cube operators fix their operands' formats.
    const Node* first_conv = nullptr;
    for (const Node* node : graph_.nodes()) {
      if (unit(*node) != ComputeUnit::Cube) continue;
      const bool conv = op_info_.find(node->domain, node->op_type).nc1hwc0;
      if (conv && first_conv == nullptr) first_conv = node;
      for (std::size_t i = 0; i < node->inputs.size(); ++i) {
        const std::string& value = node->inputs[i];
        if (conv && i == 0 && activation_4d(value)) formats_[value] = Format::NC1HWC0;
        if (conv && i == 1 && graph_.is_initializer(value) && rank(value) == 4) formats_[value] = Format::FRACTAL_Z;
        if (!conv && i < 2 && matrix(value)) formats_[value] = Format::FRACTAL_NZ;
      }
      for (const std::string& value : node->outputs) {
        if (conv && activation_4d(value)) formats_[value] = Format::NC1HWC0;
        if (!conv && matrix(value)) formats_[value] = Format::FRACTAL_NZ;
      }
    }
    if (options_.enable_small_channel && first_conv != nullptr && !first_conv->inputs.empty() &&
        rank(first_conv->inputs[0]) == 4 && infos_.at(first_conv->inputs[0]).static_shape()[1] <= kSmallChannelC0) {
      small_channel_.insert(first_conv->inputs[0]);
      if (first_conv->inputs.size() > 1) small_channel_.insert(first_conv->inputs[1]);
    }

    // NC1HWC0 spreads through the vector ops that take it, so no format change sits between
    // a convolution and its element-wise neighbours.
    for (bool changed = true; changed;) {
      changed = false;
      for (const Node* node : graph_.nodes()) {
        if (unit(*node) == ComputeUnit::Cube || !op_info_.find(node->domain, node->op_type).nc1hwc0) continue;
        std::vector<std::string> operands;
        for (const auto* names : {&node->inputs, &node->outputs})
          for (const std::string& value : *names)
            if (activation_4d(value)) operands.push_back(value);
        const bool any = std::any_of(operands.begin(), operands.end(), [&](const std::string& value) {
          const auto found = formats_.find(value);
          return found != formats_.end() && found->second == Format::NC1HWC0;
        });
        if (!any) continue;
        for (const std::string& value : operands)
          if (formats_.count(value) == 0) {
            formats_[value] = Format::NC1HWC0;
            changed = true;
          }
      }
    }

    std::unordered_map<std::string, ValueLayout> layouts;
    for (const auto& [name, info] : infos_) layouts[name] = layout_of(name, info, graph_io.count(name) != 0);
    return layouts;
  }

 private:
  ComputeUnit unit(const Node& node) const {
    const auto found = precision_.nodes.find(node.name);
    return found == precision_.nodes.end() ? ComputeUnit::Vector : found->second.unit;
  }
  std::size_t rank(const std::string& value) const {
    const auto found = infos_.find(value);
    return found == infos_.end() || !found->second.shape ? 0 : found->second.shape->size();
  }
  DType dtype(const std::string& value) const {
    const auto found = precision_.device_dtypes.find(value);
    return found != precision_.device_dtypes.end() ? found->second : infos_.at(value).dtype;
  }

  ValueLayout layout_of(const std::string& name, const ValueInfo& info, bool graph_io) const {
    const Shape shape = info.static_shape();
    const auto found = formats_.find(name);
    if (found == formats_.end()) {
      const bool input_4d = graph_io && shape.size() == 4;
      Format host = Format::ND;
      if (input_4d) host = options_.input_format == "NHWC" ? Format::NHWC : Format::NCHW;
      return {host, shape};
    }
    const std::int64_t c0 = small_channel_.count(name) != 0 ? kSmallChannelC0 : c0_for(dtype(name));
    switch (found->second) {
      case Format::NC1HWC0:  // [N, C, H, W] -> [N, C1, H, W, C0]
        return {Format::NC1HWC0, {shape[0], blocks(shape[1], c0), shape[2], shape[3], c0}};
      case Format::FRACTAL_Z:  // [Cout, Cin, KH, KW] -> [C1 * KH * KW, N1, N0, C0]
        return {Format::FRACTAL_Z, {blocks(shape[1], c0) * shape[2] * shape[3], blocks(shape[0], kFractal), kFractal, c0}};
      case Format::FRACTAL_NZ: {  // [..., M, N] -> [..., N1, M1, M0, N0]
        Shape device(shape.begin(), shape.end() - 2);
        const std::int64_t m = shape[shape.size() - 2], n = shape.back();
        device.insert(device.end(), {blocks(n, c0), blocks(m, kFractal), kFractal, c0});
        return {Format::FRACTAL_NZ, device};
      }
      default:
        return {found->second, shape};
    }
  }

  const Graph& graph_;
  const std::unordered_map<std::string, ValueInfo>& infos_;
  const PrecisionResult& precision_;
  const OpInfoTable& op_info_;
  const CompileOptions& options_;
  std::unordered_map<std::string, Format> formats_;
  std::set<std::string> small_channel_;
};

}  // namespace

std::int64_t c0_for(DType dtype) {
  const auto size = static_cast<std::int64_t>(dtype_size(dtype));
  return size == 0 ? kFractal : 32 / size;
}

std::unordered_map<std::string, ValueLayout> choose_layouts(const Graph& graph,
                                                            const std::unordered_map<std::string, ValueInfo>& infos,
                                                            const PrecisionResult& precision, const OpInfoTable& op_info,
                                                            const CompileOptions& options) {
  return LayoutChooser(graph, infos, precision, op_info, options).run();
}

}  // namespace asc::npusim
