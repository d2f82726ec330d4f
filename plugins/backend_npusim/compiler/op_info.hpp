// Which kernels each operator has on one SoC: the simulator's version of CANN's op-info library
// (opp/built-in/op_impl/ai_core/tbe/config/<soc>/aic-<soc>-ops-info.json), which lists per op
// type the dtypes and formats of its AI Core kernel, the AI CPU kernels, and `precision_reduce`
// (allow_mix_precision's white/black/gray lists). The tables live in
// configs/soc/ops_info/<soc_version>.yaml (see the README there); the compiler's precision and
// layout passes read them.
#pragma once

#include <asc/sdk/dtype.hpp>
#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/tensor.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace asc::npusim {

enum class Engine : std::uint8_t { AiCore, AiCpu };

// allow_mix_precision's lists: White = always fp16, Black = keep fp32, Gray = follow the input.
enum class PrecisionReduce : std::uint8_t { Gray, White, Black };

struct OpInfo {
  std::string op_type;  // ONNX op type, or the fusion plugin's ("FusedConv", ...)
  Engine engine = Engine::AiCore;
  std::vector<DType> dtypes;         // the engine's kernel dtypes
  std::vector<DType> ai_cpu_dtypes;  // AI CPU fallback kernels for dtypes the AI Core kernel lacks
  bool fp32_output_from_fp16 = false;  // cube: fp16 operands, fp32 result (L0C holds fp32)
  PrecisionReduce precision_reduce = PrecisionReduce::Gray;
  bool nc1hwc0 = false;              // the kernel reads and writes 4-D activations as NC1HWC0
  std::vector<int> fixed_dtype_inputs;  // inputs whose dtype the op fixes (Resize scales), not the compute dtype
  std::vector<std::string> impl_modes;  // implementation modes the kernel offers
  std::string source;                // "file:line" of the entry, for messages

  bool supports(DType dtype) const;
  bool ai_cpu_supports(DType dtype) const;
};

class OpInfoTable {
 public:
  OpInfoTable(std::string soc_version, std::map<std::string, OpInfo> ops, OpInfo fallback);
  const std::string& soc_version() const noexcept { return soc_version_; }
  // The entry for a node's (domain, op type): the file's entries are the built-in operators'
  // (ai.onnx and the fusion plugin's "asc" domain), so a custom domain's op of the same type does
  // not inherit them; it gets its plugin's declared entry (add_plugin_ops), else `default`.
  const OpInfo& find(const std::string& domain, const std::string& op_type) const;
  // Entries for the operators whose definitions declare op-info for this SoC
  // (OpDefinition::kernel_info), keyed by their own domain.
  void add_plugin_ops(const OpRegistry& ops);

 private:
  std::string soc_version_;
  std::map<std::string, OpInfo> ops_;
  std::map<std::pair<std::string, std::string>, OpInfo> plugin_ops_;  // (domain, op type)
  OpInfo fallback_;
};

// Reads <soc_dir>/ops_info/<soc_version>.yaml (and the file its `base:` names, whose entries it
// overrides per op type). Errors name file:line: EE4001 missing file, EE5001 syntax, EE5002
// unknown field, EE5003 wrong type, EE5004 missing field, EE5007 bad value (dtype, engine, ...).
OpInfoTable load_op_info(const std::string& soc_version, const std::filesystem::path& soc_dir);

}  // namespace asc::npusim
