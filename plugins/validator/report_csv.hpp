// The CSV report: one line per row, with msit compare's column names where they exist
// (Index, OpType, NPUDump, DataType, GroundTruth, DataType, TensorIndex, Shape, OverFlow, the
// ten metric columns, CompareFailReason, IsNpuOps, IsPrecisionError) and op_validate's own after them.
#pragma once

#include <string>

#include "report_common.hpp"

namespace asc::validator {

std::string render_csv(const NetworkComparison& comparison);

}  // namespace asc::validator
