#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// Default-domain opsets the operator library implements (kernels branch on the opset within
// this range). Older models are converted up to kMinOpset; newer ones are refused.
inline constexpr std::int64_t kMinOpset = 11;
inline constexpr std::int64_t kMaxOpset = 17;

// The model's default-domain ("" or "ai.onnx") opset; nullopt when it imports none.
std::optional<std::int64_t> default_opset(const onnx::ModelProto& model);

// Throws EE1004 naming the model and both the opset and the supported range when `opset` is
// newer than kMaxOpset (or not a valid opset at all).
void require_supported_opset(std::int64_t opset, const std::filesystem::path& model_path);

// Converts a model whose default-domain opset is below kMinOpset to kMinOpset with ONNX's
// version converter. Throws EE1004 naming the model, the opsets and, where the converter's
// message allows, the node, when the converter cannot do it.
onnx::ModelProto convert_to_min_opset(const onnx::ModelProto& model, std::int64_t opset,
                                      const std::filesystem::path& model_path);

}  // namespace asc::parser_onnx
