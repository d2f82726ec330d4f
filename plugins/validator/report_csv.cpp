#include "report_csv.hpp"

#include <asc/sdk/text_escape.hpp>

#include "text_format.hpp"

namespace asc::validator {
namespace {

std::string classes_text(const std::vector<std::string>& classes) {
  std::string text;
  for (const auto& c : classes) text += (text.empty() ? "" : ";") + c;
  return text;
}

}  // namespace

std::string render_csv(const NetworkComparison& comparison) {
  std::vector<std::string> header{"Index",    "OpType",      "NPUDump", "DataType", "GroundTruth",
                                  "DataType", "TensorIndex", "Shape",   "OverFlow"};
  for (const std::string& column : msit_metric_columns()) header.push_back(column);
  for (const char* column :
       {"CompareFailReason", "IsNpuOps", "IsPrecisionError", "ComparedWith", "ErrorRate", "FailingElements",
        "Elements", "MinAbsTolerance", "MinRelTolerance", "Result", "ErrorClasses"})
    header.emplace_back(column);
  std::string csv = csv_line(header);
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    const NetworkRow& row = comparison.rows[r];
    const TensorComparison* c = row.comparison ? &*row.comparison : nullptr;
    std::vector<std::string> fields{std::to_string(r),
                                    row.actual_op_type.empty() ? row.golden_op_type : row.actual_op_type,
                                    npu_dump_label(row),
                                    row.actual_dtype.empty() ? "NaN" : row.actual_dtype,
                                    ground_truth_label(row),
                                    row.golden_dtype.empty() ? "NaN" : row.golden_dtype,
                                    tensor_index_label(row),
                                    shape_to_string(row.shape),
                                    c ? (c->stats.fp16_overflow > 0 ? "YES" : "NO") : "NaN"};
    for (const std::string& column : msit_metric_columns()) {
      if (!c) {
        fields.push_back("NaN");
      } else if (column == "StandardDeviation") {
        fields.push_back(standard_deviation_text(c->metrics));
      } else {
        for (const auto& [name, value] : named_metrics(c->metrics))
          if (name == column) fields.push_back(format_number(value));
      }
    }
    fields.push_back(row.note);
    fields.push_back(row.kind == RowKind::ActualOnly ? "YES" : "NO");
    fields.push_back(row.failed() ? "YES" : "NO");
    fields.push_back(row.golden_node.empty() ? "*" : row.golden_node);
    fields.push_back(c ? format_number(c->error_rate) : "NaN");
    fields.push_back(c ? std::to_string(c->stats.failing) : "NaN");
    fields.push_back(c ? std::to_string(c->stats.elements) : "NaN");
    fields.push_back(c ? format_number(c->min_abs_tolerance) : "NaN");
    fields.push_back(c ? format_number(c->min_rel_tolerance) : "NaN");
    fields.push_back(result_label(row));
    fields.push_back(c ? classes_text(c->error_classes) : "");
    csv += csv_line(fields);
  }
  return csv;
}

}  // namespace asc::validator
