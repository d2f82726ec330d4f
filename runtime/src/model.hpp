// Loaded models: the executable, and its inputs and outputs as ACL describes them.
//
// A dynamic batch / image size model (ATC's --dynamic_batch_size / --dynamic_image_size) has,
// as on the card, one extra input after the graph's: ACL_DYNAMIC_TENSOR_NAME, a device buffer
// holding the chosen batch (one uint64) or height and width (two). aclmdlSetDynamicBatchSize /
// HWSize write it; aclmdlExecute reads it to choose the profile.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_mdl.h"
#include "asc/sdk/backend.hpp"
#include "handle_table.hpp"

namespace asc::acl {

enum class DynamicKind { None, Batch, ImageSize, Dims };

struct ModelIo {
  std::string name;
  DType dtype = DType::Undefined;
  aclDataType acl_dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  Shape dims;                 // -1 where the profile decides
  std::size_t max_bytes = 0;  // the largest profile's size
  bool dynamic_tensor = false;  // ACL_DYNAMIC_TENSOR_NAME
};

struct ModelProfile {
  InputProfile profile;
  std::vector<std::uint64_t> values;  // batch: {n}; image size: {h, w}
  std::vector<Shape> output_shapes;   // per output (resolved from the inputs' symbols)
};

struct Model {
  std::uint32_t id = 0;
  std::string name;            // the .om file's stem ("" when loaded from memory), for profiles
  std::string precision_mode;  // ATC's --precision_mode it was compiled with, for profiles
  std::unique_ptr<Executable> executable;
  std::vector<ModelIo> inputs, outputs;  // inputs: the graph's, then the dynamic tensor if any
  std::size_t graph_input_count = 0;
  DynamicKind dynamic = DynamicKind::None;
  std::vector<ModelProfile> profiles;
  std::size_t work_size = 0, weight_size = 0;  // what aclmdlQuerySize reports
  std::int64_t reserved_bytes = 0;  // device memory the runtime took for it (unreserved at unload)
  std::mutex run_mutex;      // one execution at a time (the AI cores run one model at a time anyway)
  std::mutex output_mutex;
  std::vector<Shape> current_output_shapes;  // of the last execution (aclmdlGetCurOutputDims)
};

// Loads `path` (an .om the simulator's backend reads). ACL error codes for a missing file, a
// file that is not such a model, or a plugin it needs that cannot be loaded.
std::shared_ptr<Model> load_model(const std::filesystem::path& path);

// Registers a loaded model under a new id.
std::uint32_t add_model(std::shared_ptr<Model> model);
// ACL_ERROR_INVALID_MODEL_ID unless `id` is loaded.
std::shared_ptr<Model> model_of(std::uint32_t id);
std::shared_ptr<Model> remove_model(std::uint32_t id);
void unload_all_models();

aclDataType to_acl_dtype(DType dtype);

}  // namespace asc::acl
