#include "om/om_model_codec.hpp"

#include "om/om_enums.hpp"
#include "om/om_graph_codec.hpp"
#include "om/weight_storage.hpp"

namespace asc::npusim {
namespace {

void encode_options(const CompileOptions& options, om::CompileOptions& proto) {
  proto.set_soc_version(options.soc_version);
  proto.set_soc_dir(options.soc_dir);
  proto.set_precision_mode(options.precision_mode);
  proto.set_op_select_implmode(options.op_select_implmode);
  for (const std::string& type : options.optypelist_for_implmode) proto.add_optypelist_for_implmode(type);
  for (const std::string& node : options.keep_dtype_nodes) proto.add_keep_dtype_nodes(node);
  proto.set_output_type(options.output_type);
  for (const auto& [output, type] : options.output_type_per_output) {
    om::OutputType& entry = *proto.add_output_type_per_output();
    entry.set_output(output);
    entry.set_type(type);
  }
  proto.set_input_format(options.input_format);
  for (const std::string& input : options.input_fp16_nodes) proto.add_input_fp16_nodes(input);
  proto.set_dynamic_batch_size(options.dynamic_batch_size);
  proto.set_dynamic_image_size(options.dynamic_image_size);
  proto.set_dynamic_dims(options.dynamic_dims);
  proto.set_buffer_optimize(options.buffer_optimize);
  proto.set_enable_small_channel(options.enable_small_channel);
  proto.set_enable_l2dynamic(options.enable_l2dynamic);
  proto.set_disable_reuse_memory(options.disable_reuse_memory);
  proto.set_debug_dir(options.debug_dir);
  for (const std::string& path : options.op_lib_paths) proto.add_op_lib_paths(path);
  proto.set_command_line(options.command_line);
}

CompileOptions decode_options(const om::CompileOptions& proto) {
  CompileOptions options;
  options.soc_version = proto.soc_version();
  options.soc_dir = proto.soc_dir();
  options.precision_mode = proto.precision_mode();
  options.op_select_implmode = proto.op_select_implmode();
  options.optypelist_for_implmode.assign(proto.optypelist_for_implmode().begin(), proto.optypelist_for_implmode().end());
  options.keep_dtype_nodes.assign(proto.keep_dtype_nodes().begin(), proto.keep_dtype_nodes().end());
  options.output_type = proto.output_type();
  for (const om::OutputType& entry : proto.output_type_per_output())
    options.output_type_per_output[entry.output()] = entry.type();
  options.input_format = proto.input_format();
  options.input_fp16_nodes.assign(proto.input_fp16_nodes().begin(), proto.input_fp16_nodes().end());
  options.dynamic_batch_size = proto.dynamic_batch_size();
  options.dynamic_image_size = proto.dynamic_image_size();
  options.dynamic_dims = proto.dynamic_dims();
  options.buffer_optimize = proto.buffer_optimize();
  options.enable_small_channel = proto.enable_small_channel();
  options.enable_l2dynamic = proto.enable_l2dynamic();
  options.disable_reuse_memory = proto.disable_reuse_memory();
  options.debug_dir = proto.debug_dir();
  options.op_lib_paths.assign(proto.op_lib_paths().begin(), proto.op_lib_paths().end());
  options.command_line = proto.command_line();
  return options;
}

void encode_tiling(const Tiling& tiling, om::Tiling& proto) {
  proto.set_block_dim(tiling.block_dim);
  proto.set_batch(tiling.batch);
  proto.set_m(tiling.m);
  proto.set_k(tiling.k);
  proto.set_n(tiling.n);
  proto.set_block_m(tiling.block_m);
  proto.set_block_n(tiling.block_n);
  proto.set_base_m(tiling.base_m);
  proto.set_base_k(tiling.base_k);
  proto.set_base_n(tiling.base_n);
  proto.set_l1_k(tiling.l1_k);
  proto.set_elements(tiling.elements);
  proto.set_ub_tile_elements(tiling.ub_tile_elements);
  proto.set_tiles_per_block(tiling.tiles_per_block);
  proto.set_double_buffer(tiling.double_buffer);
  proto.set_l0a_bytes(tiling.l0a_bytes);
  proto.set_l0b_bytes(tiling.l0b_bytes);
  proto.set_l0c_bytes(tiling.l0c_bytes);
  proto.set_l1_bytes(tiling.l1_bytes);
  proto.set_ub_bytes(tiling.ub_bytes);
}

Tiling decode_tiling(const om::Tiling& proto) {
  Tiling tiling;
  tiling.block_dim = proto.block_dim();
  tiling.batch = proto.batch();
  tiling.m = proto.m();
  tiling.k = proto.k();
  tiling.n = proto.n();
  tiling.block_m = proto.block_m();
  tiling.block_n = proto.block_n();
  tiling.base_m = proto.base_m();
  tiling.base_k = proto.base_k();
  tiling.base_n = proto.base_n();
  tiling.l1_k = proto.l1_k();
  tiling.elements = proto.elements();
  tiling.ub_tile_elements = proto.ub_tile_elements();
  tiling.tiles_per_block = proto.tiles_per_block();
  tiling.double_buffer = proto.double_buffer();
  tiling.l0a_bytes = proto.l0a_bytes();
  tiling.l0b_bytes = proto.l0b_bytes();
  tiling.l0c_bytes = proto.l0c_bytes();
  tiling.l1_bytes = proto.l1_bytes();
  tiling.ub_bytes = proto.ub_bytes();
  return tiling;
}

void encode_task(const CompiledTask& task, om::CompiledTask& proto) {
  proto.set_node(task.node);
  proto.set_unit(to_proto(task.unit));
  proto.set_task_type(task.task_type);
  proto.set_compute_dtype(to_proto(task.compute_dtype));
  proto.set_impl_mode(task.impl_mode);
  for (const Format format : task.input_formats) proto.add_input_formats(to_proto(format));
  for (const Format format : task.output_formats) proto.add_output_formats(to_proto(format));
  encode_tiling(task.tiling, *proto.mutable_tiling());
  proto.set_workspace_bytes(task.workspace_bytes);
}

CompiledTask decode_task(const om::CompiledTask& proto, const std::string& origin, const std::string& where) {
  CompiledTask task;
  task.node = proto.node();
  task.unit = unit_from_proto(proto.unit(), origin, where);
  task.task_type = proto.task_type();
  task.compute_dtype = dtype_from_proto(proto.compute_dtype(), origin, where);
  task.impl_mode = proto.impl_mode();
  for (const int format : proto.input_formats()) task.input_formats.push_back(format_from_proto(format, origin, where));
  for (const int format : proto.output_formats()) task.output_formats.push_back(format_from_proto(format, origin, where));
  task.tiling = decode_tiling(proto.tiling());
  task.workspace_bytes = proto.workspace_bytes();
  return task;
}

void encode_placement(const ValuePlacement& placement, om::ValuePlacement& proto) {
  proto.set_value(placement.value);
  proto.set_region(to_proto(placement.region));
  proto.set_dtype(to_proto(placement.dtype));
  proto.set_format(to_proto(placement.format));
  for (const std::int64_t dim : placement.shape) proto.add_shape(dim);
  for (const std::int64_t dim : placement.device_shape) proto.add_device_shape(dim);
  proto.set_offset(placement.offset);
  proto.set_bytes(placement.bytes);
  proto.set_first_task(placement.first_task);
  proto.set_last_task(placement.last_task);
}

ValuePlacement decode_placement(const om::ValuePlacement& proto, const std::string& origin, const std::string& where) {
  ValuePlacement placement;
  placement.value = proto.value();
  placement.region = region_from_proto(proto.region(), origin, where);
  placement.dtype = dtype_from_proto(proto.dtype(), origin, where);
  placement.format = format_from_proto(proto.format(), origin, where);
  placement.shape.assign(proto.shape().begin(), proto.shape().end());
  placement.device_shape.assign(proto.device_shape().begin(), proto.device_shape().end());
  placement.offset = proto.offset();
  placement.bytes = proto.bytes();
  placement.first_task = proto.first_task();
  placement.last_task = proto.last_task();
  return placement;
}

void encode_memory(const MemoryPlan& memory, om::MemoryPlan& proto) {
  proto.set_reuse(memory.reuse);
  proto.set_activation_bytes(memory.activation_bytes);
  proto.set_activation_bytes_no_reuse(memory.activation_bytes_no_reuse);
  proto.set_weight_bytes(memory.weight_bytes);
  proto.set_workspace_bytes(memory.workspace_bytes);
  proto.set_input_bytes(memory.input_bytes);
  proto.set_output_bytes(memory.output_bytes);
}

MemoryPlan decode_memory(const om::MemoryPlan& proto) {
  MemoryPlan memory;
  memory.reuse = proto.reuse();
  memory.activation_bytes = proto.activation_bytes();
  memory.activation_bytes_no_reuse = proto.activation_bytes_no_reuse();
  memory.weight_bytes = proto.weight_bytes();
  memory.workspace_bytes = proto.workspace_bytes();
  memory.input_bytes = proto.input_bytes();
  memory.output_bytes = proto.output_bytes();
  return memory;
}

void encode_profile(const CompiledProfile& profile, om::CompiledProfile& proto) {
  proto.set_label(profile.label);
  for (const auto& [input, shape] : profile.input_shapes) {
    om::InputShape& entry = *proto.add_input_shapes();
    entry.set_input(input);
    entry.mutable_dims()->Add(shape.begin(), shape.end());
  }
  for (const CompiledTask& task : profile.tasks) encode_task(task, *proto.add_tasks());
  for (const ValuePlacement& placement : profile.values) encode_placement(placement, *proto.add_values());
  encode_memory(profile.memory, *proto.mutable_memory());
}

CompiledProfile decode_profile(const om::CompiledProfile& proto, const std::string& origin) {
  CompiledProfile profile;
  profile.label = proto.label();
  const std::string where = "profile '" + profile.label + "'";
  for (const om::InputShape& entry : proto.input_shapes())
    if (!profile.input_shapes.emplace(entry.input(), Shape(entry.dims().begin(), entry.dims().end())).second)
      om_format_error(origin, where, "input '" + entry.input() + "' has two shapes");
  for (const om::CompiledTask& task : proto.tasks())
    profile.tasks.push_back(decode_task(task, origin, where + ", task of node '" + task.node() + "'"));
  for (const om::ValuePlacement& placement : proto.values())
    profile.values.push_back(decode_placement(placement, origin, where + ", placement of '" + placement.value() + "'"));
  profile.memory = decode_memory(proto.memory());
  return profile;
}

}  // namespace

om::CompiledModel encode_model(const CompiledModel& model) {
  om::CompiledModel proto;
  proto.set_soc_version(model.soc_version);
  encode_options(model.options, *proto.mutable_options());
  proto.set_source_model(model.source_model);
  proto.set_framework(model.framework);
  *proto.mutable_graph() = encode_graph(model.graph, weight_storage_dtypes(model));
  proto.set_dynamic_kind(model.dynamic_kind);
  for (const CompiledProfile& profile : model.profiles) encode_profile(profile, *proto.add_profiles());
  return proto;
}

CompiledModel decode_model(om::CompiledModel& proto, const std::string& origin) {
  CompiledModel model;
  model.soc_version = proto.soc_version();
  model.options = decode_options(proto.options());
  model.source_model = proto.source_model();
  model.framework = proto.framework();
  model.graph = decode_graph_consuming_weights(*proto.mutable_graph(), origin);
  model.dynamic_kind = proto.dynamic_kind();
  if (proto.profiles().empty()) om_format_error(origin, "", "no compiled profile (a model has at least one)");
  for (const om::CompiledProfile& profile : proto.profiles()) model.profiles.push_back(decode_profile(profile, origin));
  return model;
}

}  // namespace asc::npusim
