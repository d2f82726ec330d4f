#include "precision.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/half.hpp>

namespace asc::npusim {

PrecisionMode parse_precision_mode(const std::string& text) {
  if (text.empty() || text == "force_fp16") return PrecisionMode::ForceFp16;
  if (text == "must_keep_origin_dtype") return PrecisionMode::MustKeepOriginDtype;
  if (text == "force_fp32") return PrecisionMode::ForceFp32;
  throw Error(ErrorCode::ConfigBadValue, "npusim: precision_mode '" + text +
                                             "' is not one of force_fp16, must_keep_origin_dtype, force_fp32");
}

std::string precision_mode_name(PrecisionMode mode) {
  switch (mode) {
    case PrecisionMode::ForceFp16:
      return "force_fp16";
    case PrecisionMode::MustKeepOriginDtype:
      return "must_keep_origin_dtype";
    case PrecisionMode::ForceFp32:
      return "force_fp32";
  }
  return "force_fp16";
}

DType compute_dtype(PrecisionMode mode, const Node& node, ComputeUnit unit, DType graph_dtype, const SocConfig& soc) {
  const bool is_float = graph_dtype == DType::Float32 || graph_dtype == DType::Float16 || graph_dtype == DType::BFloat16;
  if (!is_float) return graph_dtype;
  DType dtype = graph_dtype;
  if (mode == PrecisionMode::ForceFp16) dtype = DType::Float16;
  if (mode == PrecisionMode::ForceFp32) dtype = DType::Float32;
  if (unit == ComputeUnit::Cube && dtype == DType::Float32 && !soc.cube_fp32)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": " + soc.name + " has no float32 cube (configs/soc/" + soc.name +
                    ".yaml lists no cube.fp32); use precision_mode force_fp16");
  return dtype;
}

void round_float_tensor_to_f16(Tensor& tensor) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return;
  const auto values = tensor.span<float>();
  round_to_f16(values, values);
}

Tensor rounded_copy(const Tensor& tensor) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return tensor;
  Tensor copy = tensor.contiguous().clone();
  round_float_tensor_to_f16(copy);
  return copy;
}

}  // namespace asc::npusim
