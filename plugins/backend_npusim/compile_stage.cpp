#include "compile_stage.hpp"

#include <asc/sdk/log.hpp>
#include <asc/sdk/registry.hpp>
#include <string>

#include "compiler/compile_model.hpp"
#include "om/om_file.hpp"

namespace asc::npusim {
namespace {

constexpr const char* kCompileStage = "npusim.compile";

// One string parameter per CompileOptions field, named as the field (= the ATC flag).
struct OptionParam {
  const char* name;
  const char* help;
};

constexpr OptionParam kOptionParams[] = {
    {"soc_version", "required: the chip, a configs/soc/<name>.yaml (Ascend310, Ascend310P3, Ascend910, Ascend910B1..B4)"},
    {"soc_dir", "directory of SoC files (default: $ASC_SOC_DIR, else the installed ones)"},
    {"precision_mode",
     "force_fp16 (default), allow_fp32_to_fp16, must_keep_origin_dtype, allow_mix_precision (allow_mix_precision_fp16, "
     "mixed_float16), force_fp32 (cube_fp16in_fp32out)"},
    {"op_select_implmode", "high_precision, high_performance (default), high_precision_for_all, high_performance_for_all"},
    {"optypelist_for_implmode", "op types op_select_implmode applies to, comma-separated (default: all)"},
    {"keep_dtype_nodes", "node names (or OpType::<type>) kept at their original dtype, comma-separated"},
    {"output_type", "FP32, FP16 or UINT8 for every output, or per output \"node:index:FP16;node2:0:FP32\""},
    {"output_type_per_output", "per output \"node:index:FP16;...\" (as output_type's per-output form)"},
    {"input_format", "layout of the graph inputs: NCHW, NHWC, ND, NCDHW, NDHWC"},
    {"input_fp16_nodes", "graph inputs fed as fp16 instead of float32, \"name1;name2\""},
    {"dynamic_batch_size", "batch profiles \"1,2,4,8\" for inputs whose dim 0 is -1"},
    {"dynamic_image_size", "image profiles \"h,w;h,w\" for inputs whose H and W are -1"},
    {"dynamic_dims", "profiles \"d1,d2;d1,d2\" giving every -1 dim, in input order"},
    {"buffer_optimize", "l2_optimize (default), l1_optimize, off_optimize"},
    {"enable_small_channel", "1: C0 = 4 for a first convolution with at most 4 input channels"},
    {"enable_l2dynamic", "1 (default) / 0"},
    {"disable_reuse_memory", "1: no activation memory reuse"},
    {"debug_dir", "runs of the .om dump every task's outputs here"},
    {"op_lib_paths", "custom operator plugins the model was compiled with, comma-separated (recorded in the .om)"},
    {"command_line", "the atc command line, recorded verbatim in the .om"},
};

void run_compile(PipelineContext& ctx, const StageParams& params) {
  const Graph& graph = ctx.require_graph(kCompileStage);
  BackendOptions options;
  for (const OptionParam& param : kOptionParams)
    if (params.has(param.name) && !params.get_string(param.name).empty())
      options[param.name] = params.get_string(param.name);
  CompiledModel model = compile_model(graph, ctx.registry.ops(), parse_compile_options(options));
  if (const auto source = ctx.artifacts.find("model"); source != ctx.artifacts.end())
    model.source_model = source->second.string();

  const std::filesystem::path output = params.get_path("output");
  write_om(model, output);
  ctx.artifacts["om"] = output;

  std::size_t tasks = 0;
  for (const CompiledTask& task : model.profiles.front().tasks) tasks += task.unit != ComputeUnit::None ? 1 : 0;
  const MemoryPlan& memory = model.profiles.front().memory;
  std::string labels;
  for (const CompiledProfile& profile : model.profiles) labels += (labels.empty() ? "" : ", ") + profile.label;
  log_info(std::string(kCompileStage) + ": wrote " + output.string() + " for " + model.soc_version + " (" +
           model.options.precision_mode + "): " + std::to_string(tasks) + " tasks, weights " +
           std::to_string(memory.weight_bytes) + " bytes, activations " +
           std::to_string(memory.activation_bytes) + " bytes with reuse (" +
           std::to_string(memory.activation_bytes_no_reuse) + " without), " +
           std::to_string(model.profiles.size()) + " profile(s): " + labels);
}

}  // namespace

StageDefinition npusim_compile_stage() {
  StageDefinition stage;
  stage.name = kCompileStage;
  stage.description =
      "compile the graph for a simulated Ascend SoC as ATC does (precision, formats, tiling, memory plan, dynamic "
      "profiles) and write the .om";
  stage.params.push_back({"output", ParamType::Path, true, "", "the .om file to write (atomically)"});
  for (const OptionParam& param : kOptionParams)
    stage.params.push_back({param.name, ParamType::String, std::string(param.name) == "soc_version", "", param.help});
  stage.run = run_compile;
  return stage;
}

}  // namespace asc::npusim
