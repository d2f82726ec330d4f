// The .om as ATC's own `atc --mode=1` JSON (GE's ModelDef as JSON), for scripts written against
// real ATC output such as msit compare's OM parser:
//   {"name": <model>, "version": 1, "graph": [{"name", "input": [...], "output": [...],
//     "op": [{"name", "type", "input": ["<producer>:<output index>", ...],
//             "attr": [{"key", "value": {"s"|"i"|"f"|"b"|"list": {"val_type", "s"|"i"|"f"|"b": [...]}}}],
//             "input_desc": [TensorDesc], "output_desc": [TensorDesc]}]}]}
//   TensorDesc: {"name", "dtype": "DT_FLOAT16", "shape": {"dim": [device shape]}, "layout": "NC1HWC0",
//                "attr": [origin_format, origin_shape (+ on outputs _datadump_origin_name,
//                         _datadump_origin_output_index, _datadump_origin_format)]}
// Graph inputs become Data ops, weights Const ops and the outputs one NetOutput op, as in GE's
// graph. Every op carries _datadump_original_op_names (its provenance), the attribute msit maps
// fused ops back to ONNX nodes by. Descriptors are the first compiled profile's (docs/atc.md).
#pragma once

#include <nlohmann/json.hpp>

#include "compiler/compiled_model.hpp"

namespace asc::npusim {

nlohmann::ordered_json om_to_atc_json(const CompiledModel& model);

}  // namespace asc::npusim
