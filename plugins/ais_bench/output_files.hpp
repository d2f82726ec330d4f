// Writes one inference's outputs as ais_bench's save_tensors_to_file does:
//   <prefix>/<first input file's base name up to its first '.'>_<output index>.<bin|npy|txt>
// ("pure_infer_data_0.bin" on generated input). When several files made up one batch, each
// output is split along axis 0 into one file per input file (padding slots are skipped).
// BIN is the raw array (little-endian, C order, the output's dtype), NPY a .npy, TXT numpy's
// savetxt of the array viewed as rows of its last dimension ("%f " for floats, "%d " otherwise).
#pragma once

#include <asc/sdk/backend.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "input_files.hpp"

namespace asc::bench {

// _summary.json's "filesinfo" entry of one sample.
struct SampleFiles {
  std::size_t sample_id = 0;
  std::vector<std::string> infiles, outfiles;
};

// `outputs` in model-output order; `index` is the inference's position among the samples.
// EE8003 when an output's first dimension does not split over the batch's files.
std::vector<SampleFiles> save_outputs(const std::vector<Tensor>& outputs, const std::filesystem::path& prefix,
                                      const Sample& sample, OutputFormat format, std::size_t index);

// numpy.savetxt's text of `tensor` as ais_bench writes TXT outputs.
std::string txt_of(const Tensor& tensor);

}  // namespace asc::bench
