// The tensors of one inference: files read as ais_bench reads them (the bytes of a .bin, the
// array of a .npy), or generated data.
#pragma once

#include <asc/sdk/backend.hpp>
#include <asc/sdk/graph.hpp>
#include <random>
#include <vector>

#include "bench_options.hpp"
#include "input_files.hpp"

namespace asc::bench {

// Generated input bytes, as ais_bench's get_pure_infer_data: zeros, or bytes uniform in 0..255
// (reinterpreted as the input's dtype, so random float inputs can hold any bit pattern).
std::vector<std::byte> pure_infer_bytes(std::size_t bytes, PureDataType type, std::mt19937& generator);

// One tensor per model input (`infos` in order) with the shape it runs at (`shapes`). A file
// whose data size does not make up the tensor is EE8003 naming it and both sizes; a .npy of
// another dtype than the input's is EE8003 too.
TensorMap sample_tensors(const Sample& sample, const std::vector<ValueInfo>& infos, const std::vector<Shape>& shapes,
                         PureDataType pure_data_type, std::mt19937& generator);

}  // namespace asc::bench
