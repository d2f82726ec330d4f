// Backend support (since SDK 0.3): seeded random inputs for running a model without input files.
#pragma once

#include "asc/sdk/backend.hpp"
#include "asc/sdk/graph.hpp"
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace asc {

// Input shapes as asc::parse_input_shape_spec() reads them from ATC's --input_shape syntax.
using InputShapeSpec = std::map<std::string, std::vector<std::int64_t>>;

// The shape to generate for `info`: the spec's shape when it names the input (it must agree
// with the declared rank and static dimensions), else the declared shape with every symbolic or
// unknown dimension (and any -1 in the spec) set to 1. Throws EE1009 naming the input when the
// rank is unknown and the spec does not give it, or when the spec contradicts the declaration.
Shape random_input_shape(const ValueInfo& info, const InputShapeSpec& spec);

// Floats uniform in [-1, 1), integers uniform in [0, 10), bools fair coin flips; elements in
// row-major order from `generator`.
Tensor random_tensor(DType dtype, const Shape& shape, std::mt19937& generator);

// One tensor per input, generated in order from one std::mt19937 seeded with `seed`.
TensorMap random_inputs(const std::vector<ValueInfo>& inputs, const InputShapeSpec& spec, std::uint32_t seed);

}  // namespace asc
