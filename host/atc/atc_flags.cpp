#include "atc_flags.hpp"

namespace asc::atc {

const std::vector<host::FlagSpec>& atc_flag_specs() {
  static const std::vector<host::FlagSpec> specs{
      // General
      {.name = "help", .help = "Show this help message", .boolean = true, .group = "General", .aliases = {"h"}},
      {.name = "mode", .value_name = "N",
       .help = "0 (default): convert a model to an offline model (.om)\n1: convert an .om to JSON (--om, --json)",
       .choices = {"0", "1"}, .group = "General"},
      // Input
      {.name = "model", .value_name = "FILE", .help = "Model file: an .onnx model (required in mode 0)", .group = "Input"},
      {.name = "framework", .value_name = "N",
       .help = "Framework of --model: 5 (ONNX). 0 (Caffe), 1 (MindSpore), 3 (TensorFlow) are not supported yet",
       .group = "Input"},
      {.name = "om", .value_name = "FILE", .help = "The .om to convert in --mode=1", .group = "Input"},
      {.name = "input_format", .value_name = "FORMAT", .help = "Layout of the model's inputs; ONNX models take NCHW, ND, NCDHW",
       .choices = {"NCHW", "NHWC", "ND", "NCDHW", "NDHWC"}, .group = "Input"},
      {.name = "input_shape", .value_name = "SHAPES",
       .help = "Input shapes, e.g. \"input:1,3,224,224;mask:1,128\"; -1 marks a dynamic dim", .group = "Input"},
      {.name = "input_fp16_nodes", .value_name = "NODES",
       .help = "Inputs fed as fp16, e.g. \"data;mask\": the model reads them as fp16 instead of their float32",
       .group = "Input"},
      {.name = "dynamic_batch_size", .value_name = "SIZES",
       .help = "Batch profiles, e.g. \"1,2,4,8\" (needs -1 as N in --input_shape)", .group = "Input"},
      {.name = "dynamic_image_size", .value_name = "SIZES",
       .help = "Height,width profiles, e.g. \"320,320;640,640\" (needs -1 as H and W in --input_shape)", .group = "Input"},
      {.name = "dynamic_dims", .value_name = "DIMS",
       .help = "Dims profiles, e.g. \"1,224;2,224\": one value per -1 dim of --input_shape, in order\n"
               "(whole shapes, \"1,3,320,320;1,3,640,640\", are also read)",
       .group = "Input"},
      {.name = "dynamic_shape", .value_name = "SHAPES",
       .help = "Whole-shape profiles, e.g. \"images:[1,3,320,320];[1,3,640,640]\" (same as --dynamic_dims)",
       .group = "Input"},
      // Output
      {.name = "output", .value_name = "PATH", .help = "Output .om path without the suffix: atc appends .om (required in mode 0)",
       .group = "Output"},
      {.name = "output_type", .value_name = "TYPE",
       .help = "Output dtype: FP32, FP16 or UINT8 for every output, or per output \"node:0:FP16;node2:1:FP32\"",
       .group = "Output"},
      {.name = "json", .value_name = "FILE", .help = "The JSON file --mode=1 writes", .group = "Output"},
      {.name = "json_layout", .value_name = "LAYOUT",
       .help = "--mode=1's JSON: asc (default: header, ops with tasks and tiling, profiles, weights) or atc\n"
               "(ATC's own layout, graph[].op[] with name, type, attr, input_desc, output_desc)",
       .choices = {"asc", "atc"}, .group = "Output"},
      // Target
      {.name = "soc_version", .value_name = "SOC",
       .help = "Target chip, one of configs/soc (Ascend310, Ascend310P3, Ascend910, Ascend910B1..B4)", .group = "Target"},
      {.name = "buffer_optimize", .value_name = "MODE", .help = "Buffer optimisation (default l2_optimize)",
       .choices = {"l2_optimize", "l1_optimize", "off_optimize"}, .group = "Target"},
      {.name = "enable_small_channel", .help = "Small-channel optimisation of the first convolution (default off)",
       .boolean = true, .group = "Target"},
      {.name = "enable_l2dynamic", .help = "Let tensors use the L2 cache dynamically (default on)", .boolean = true,
       .group = "Target"},
      // Feature
      {.name = "out_nodes", .value_name = "NODES",
       .help = "Outputs to keep, e.g. \"conv1:0;fc:0\" (node name:output index); the rest of the graph is dropped",
       .group = "Feature"},
      {.name = "op_lib_path", .value_name = "DIRS",
       .help = "Directories (comma-separated) of custom operator plugins to load; recorded in the .om", .group = "Feature"},
      // Model Tuning
      {.name = "disable_reuse_memory", .help = "Give every activation its own buffer (default off: buffers are reused)",
       .boolean = true, .group = "Model Tuning"},
      {.name = "fusion_switch_file", .value_name = "FILE",
       .help = "Fusion passes to turn on or off: \"Pass:off\" lines, or ATC's {\"Switch\":{...}} JSON", .group = "Model Tuning"},
      {.name = "enable_scope_fusion", .help = "Also run scope fusions (attention blocks)", .boolean = true,
       .group = "Model Tuning"},
      // Operator Tuning
      {.name = "precision_mode", .value_name = "MODE",
       .help = "Operator precision (default force_fp16); mixed_float16 = allow_mix_precision, force_fp32 = cube_fp16in_fp32out",
       .choices = {"force_fp16", "allow_fp32_to_fp16", "must_keep_origin_dtype", "allow_mix_precision",
                   "allow_mix_precision_fp16", "mixed_float16", "force_fp32", "cube_fp16in_fp32out"},
       .group = "Operator Tuning"},
      {.name = "op_select_implmode", .value_name = "MODE", .help = "Operator implementation mode",
       .choices = {"high_precision", "high_performance", "high_precision_for_all", "high_performance_for_all"},
       .group = "Operator Tuning"},
      {.name = "optypelist_for_implmode", .value_name = "TYPES",
       .help = "Op types --op_select_implmode applies to, e.g. \"Sigmoid,Softmax\" (needs --op_select_implmode)",
       .group = "Operator Tuning"},
      {.name = "keep_dtype", .value_name = "FILE",
       .help = "File of node names (one a line) whose original dtype is kept", .group = "Operator Tuning"},
      // Debug
      {.name = "log", .value_name = "LEVEL", .help = "Log level on stderr (default warning, or $ASC_LOG_LEVEL)",
       .choices = {"debug", "info", "warning", "error", "null"}, .group = "Debug"},
      {.name = "debug_dir", .value_name = "DIR",
       .help = "Recorded in the .om: running it dumps every operator's outputs here", .group = "Debug"},
  };
  return specs;
}

std::string atc_help() {
  return "Usage: atc --model=MODEL.onnx --framework=5 --output=NAME --soc_version=SOC [flags]\n"
         "       atc --mode=1 --om=MODEL.om --json=MODEL.json\n"
         "\n"
         "Converts an ONNX model to an offline model (.om) for the simulated Ascend NPU, as CANN's ATC\n"
         "does: parse, fusion passes, compile for the SoC. Flags take --name=value or --name value; '-'\n"
         "and '_' in names are interchangeable; quote values that contain ';'. docs/atc.md has details.\n" +
         host::format_flag_help(atc_flag_specs());
}

}  // namespace asc::atc
