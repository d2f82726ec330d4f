// --debug's model listing, as ais_bench prints it:
//   input:
//     #0    actual_input_1  (1, 3, 224, 224)  float32  602112  602112
// (index, name, shape, dtype, size, realsize; the shape is the compiled one, -1 where the
// dynamic profiles differ, size its bytes when static, realsize the bytes at the shape it runs at).
#pragma once

#include <asc/sdk/graph.hpp>
#include <string>
#include <vector>

namespace asc::bench {

// `declared` and `run_shapes` parallel `infos`; for outputs pass the shapes of the tensors the
// first inference produced as both.
std::string describe_values(const std::string& heading, const std::vector<ValueInfo>& infos,
                            const std::vector<Shape>& declared, const std::vector<Shape>& run_shapes);

}  // namespace asc::bench
