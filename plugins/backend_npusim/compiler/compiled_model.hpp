// What atc produces and the simulator runs: the graph compiled for one SoC plus every decision
// the compiler made for it — per-task compute dtype and implementation mode, device formats,
// tiling, the memory plan, and one entry per dynamic-shape profile. The .om file (om/) is this
// structure on disk; NpusimExecutable runs it.
//
// Host storage convention: tensors in `graph` (initializers, and values at run time) keep their
// host dtype (float32 for float models) even where the device dtype is fp16; their values are
// then exactly fp16-representable (rounded at compile time for weights, after every task at run
// time). ValuePlacement::dtype is the device dtype, and the .om stores weights at that dtype, so
// a force_fp16 .om is about half the size of the fp32 one.
#pragma once

#include <asc/sdk/backend.hpp>
#include <asc/sdk/dtype.hpp>
#include <asc/sdk/graph.hpp>
#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/tensor.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace asc::npusim {

// ATC's compile flags as the compiler reads them. Parsed from BackendOptions whose keys are the
// flag names without dashes (see parse_compile_options).
struct CompileOptions {
  std::string soc_version;
  std::string soc_dir;                          // where SoC files live ("" = default lookup)
  std::string precision_mode = "force_fp16";    // force_fp16, allow_fp32_to_fp16, must_keep_origin_dtype,
                                                // allow_mix_precision (= mixed_float16), force_fp32
                                                // (= cube_fp16in_fp32out)
  std::string op_select_implmode;               // "", high_precision, high_performance
  std::vector<std::string> optypelist_for_implmode;  // op types the implmode applies to ("" = all)
  std::vector<std::string> keep_dtype_nodes;    // node names kept at their original dtype
  std::string output_type;                      // global: "", FP32, FP16, UINT8
  std::map<std::string, std::string> output_type_per_output;  // "node:index" -> FP32/FP16/UINT8
  std::string input_format;                     // NCHW, NHWC, ND ("" = from the model)
  std::vector<std::string> input_fp16_nodes;    // float32 graph inputs the host feeds as fp16
  std::string dynamic_batch_size;               // "1,2,4,8"
  std::string dynamic_image_size;               // "640,640;320,320"
  std::string dynamic_dims;                     // "1,224;2,224" (ND inputs, -1 dims in order)
  std::string buffer_optimize = "l2_optimize";  // l2_optimize, l1_optimize, off_optimize
  bool enable_small_channel = false;
  bool enable_l2dynamic = true;
  bool disable_reuse_memory = false;
  std::string debug_dir;                        // runtime dumps every task's outputs here
  std::vector<std::string> op_lib_paths;        // custom operator plugins used at compile time
  std::string command_line;                     // the atc command line, verbatim, for the .om
};

// Reads the keys above from `options` (values as ATC spells them: "true"/"false", "1"/"0",
// comma lists). An unknown key is EE5002 naming it and listing the known ones; a bad value is
// EE5007 naming key and value.
CompileOptions parse_compile_options(const BackendOptions& options);

// How one task splits over the AI cores and through the on-chip buffers. Cube operators are
// viewed as GEMM (m x k) * (k x n) (img2col for Conv, `batch` independent products); vector
// operators as a stream of elements.
struct Tiling {
  int block_dim = 1;               // blocks launched; each runs on one core
  // Cube operators (zero for vector ones).
  std::int64_t batch = 0, m = 0, k = 0, n = 0;  // the whole problem
  std::int64_t block_m = 0, block_n = 0;        // one block's slice of the output
  std::int64_t base_m = 0, base_k = 0, base_n = 0;  // one L0 tile: L0A base_m x base_k,
                                                    // L0B base_k x base_n, L0C base_m x base_n
  std::int64_t l1_k = 0;           // K depth staged in L1 per MTE2 load
  // Vector operators (zero for cube ones).
  std::int64_t elements = 0;       // elements the task iterates over
  std::int64_t ub_tile_elements = 0;  // elements per UB tile
  std::int64_t tiles_per_block = 0;
  bool double_buffer = true;
  // Buffer footprint of one block, each <= the SoC's size.
  std::int64_t l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0, l1_bytes = 0, ub_bytes = 0;
};

// One node of the compiled graph as a task on the device.
struct CompiledTask {
  std::string node;                 // Node::name in CompiledModel::graph
  ComputeUnit unit = ComputeUnit::Vector;
  std::string task_type;            // AI_CORE, AI_VECTOR_CORE, AI_CPU, or "" (no device work)
  DType compute_dtype = DType::Undefined;
  std::string impl_mode;            // high_precision, high_performance
  std::vector<Format> input_formats, output_formats;
  Tiling tiling;
  std::int64_t workspace_bytes = 0;
};

// One tensor in device memory for one profile.
struct ValuePlacement {
  enum class Region : std::uint8_t { Input, Output, Activation, Weight };
  std::string value;
  Region region = Region::Activation;
  DType dtype = DType::Undefined;   // device dtype
  Format format = Format::ND;       // device format
  Shape shape;                      // logical shape
  Shape device_shape;               // shape in `format` (NC1HWC0: N, C1, H, W, C0)
  std::int64_t offset = 0;          // within its region
  std::int64_t bytes = 0;           // device bytes, padding included
  int first_task = -1, last_task = -1;  // lifetime in task indices (-1: whole run)
};

struct MemoryPlan {
  bool reuse = true;                         // false under --disable_reuse_memory
  std::int64_t activation_bytes = 0;         // arena size as planned
  std::int64_t activation_bytes_no_reuse = 0;  // sum of all activation buffers
  std::int64_t weight_bytes = 0;
  std::int64_t workspace_bytes = 0;
  std::int64_t input_bytes = 0, output_bytes = 0;
  std::int64_t total_bytes() const {
    return activation_bytes + weight_bytes + workspace_bytes + input_bytes + output_bytes;
  }
};

// One static-shape instance of the model: the only one for a static model, one per listed
// batch size / image size / dims for a dynamic one.
struct CompiledProfile {
  std::string label;                          // "static", "batch=4", "image_size=320x320", "dims=1,224"
  std::map<std::string, Shape> input_shapes;  // every graph input, static
  std::vector<CompiledTask> tasks;            // one per node of the graph, in graph order
  std::vector<ValuePlacement> values;
  MemoryPlan memory;
};

struct CompiledModel {
  std::string soc_version;
  CompileOptions options;
  std::string source_model;   // the model file atc read
  std::string framework = "ONNX";
  // After fusion and precision: inserted Cast nodes are ordinary nodes; provenance on every node.
  Graph graph;
  std::string dynamic_kind;   // "", "batch", "image_size", "dims"
  std::vector<CompiledProfile> profiles;  // at least one
  // The profile whose input shapes equal `shapes` (every graph input); EE8003 listing the
  // compiled profiles when none does.
  const CompiledProfile& profile_for(const std::map<std::string, Shape>& shapes) const;
};

}  // namespace asc::npusim
