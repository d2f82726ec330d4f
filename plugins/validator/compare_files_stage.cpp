#include <asc/sdk/error.hpp>
#include <optional>

#include "compare_stages.hpp"
#include "report_outputs.hpp"
#include "tensor_comparison.hpp"
#include "tensor_files.hpp"
#include "text_format.hpp"

namespace asc::validator {
namespace {

constexpr const char* kCompareFilesStage = "validator.compare_files";

DType dtype_param(const StageParams& params, const std::string& name, DType fallback) {
  if (!params.has(name) || params.get_string(name).empty()) return fallback;
  const std::string text = params.get_string(name);
  const auto dtype = parse_dtype(text);
  if (!dtype || *dtype == DType::Undefined)
    throw Error(ErrorCode::ConfigBadValue,
                std::string(kCompareFilesStage) + ": " + name + " '" + text +
                    "' is not a data type (float32, float16, bfloat16, float64, int8, "
                    "uint8, int16, uint16, int32, uint32, int64, uint64, bool)");
  return *dtype;
}

void run_compare_files(PipelineContext& ctx, const StageParams& params) {
  const ComparisonOptions options = options_from(params);
  const DType dtype = dtype_param(params, "dtype", DType::Float32);
  std::optional<Shape> shape;
  if (params.has("shape") && !params.get_string("shape").empty())
    shape = parse_shape_text(params.get_string("shape"), "shape");
  const auto golden_path = params.get_path("golden"), actual_path = params.get_path("actual");
  const Tensor golden =
      load_tensor_file(golden_path, "golden", dtype_param(params, "golden_dtype", dtype), shape);
  const Tensor actual =
      load_tensor_file(actual_path, "actual", dtype_param(params, "actual_dtype", dtype), shape);

  const std::string op_name = params.has("op_name") ? params.get_string("op_name") : "";
  NetworkRow row;
  row.actual_node = op_name.empty() ? actual_path.filename().string() : op_name;
  row.golden_node = golden_path.filename().string();
  row.provenance = {op_name.empty() ? row.golden_node : op_name};
  row.actual_dtype = std::string(dtype_name(actual.dtype()));
  row.golden_dtype = std::string(dtype_name(golden.dtype()));
  row.output_index = 0;
  row.shape = golden.shape();
  row.comparison = compare_tensors(golden.view(), actual.view(), options, criteria_from(params));
  NetworkComparison comparison;
  comparison.golden_dir = golden_path;
  comparison.actual_dir = actual_path;
  comparison.options = options;
  comparison.criteria = row.comparison->criteria;
  comparison.rows.push_back(std::move(row));
  summarize(comparison);

  const ReportContext context{"files", op_name, golden_path.string(), actual_path.string()};
  const std::filesystem::path inputs[] = {golden_path, actual_path};
  const std::string reports = publish_reports(ctx, params, comparison, context, inputs);
  const TensorComparison& c = *comparison.rows.front().comparison;
  if (c.passed) return;
  std::string classes;
  for (const auto& name : c.error_classes) classes += (classes.empty() ? "" : ", ") + name;
  throw Error(ErrorCode::ValidationFailed,
              (op_name.empty() ? std::string("'") + actual_path.string() + "'" : "op '" + op_name + "'") +
                  ": " + std::to_string(c.stats.failing) + " of " + std::to_string(c.stats.elements) +
                  " elements (" + format_percent(c.error_rate) +
                  ") exceed abs_tolerance=" + format_number(options.abs_tolerance) +
                  " or rel_tolerance=" + format_number(options.rel_tolerance) + " [" + classes + "]" +
                  (reports.empty() ? "" : "; reports: " + reports));
}

}  // namespace

StageDefinition compare_files_stage() {
  StageDefinition stage;
  stage.name = kCompareFilesStage;
  stage.description = "compare one operator's output with its golden (.npy, or raw .bin with dtype/shape)";
  stage.params = {
      {"golden", ParamType::Path, true, "", "the golden (reference) output: .npy, or a raw .bin"},
      {"actual", ParamType::Path, true, "", "the output to check: .npy, or a raw .bin"},
      {"op_name", ParamType::String, false, "", "the operator's name, for the reports"},
      {"dtype", ParamType::String, false, "float32", "element type of raw .bin files"},
      {"golden_dtype", ParamType::String, false, "",
       "element type of a raw golden file, when it differs from dtype"},
      {"actual_dtype", ParamType::String, false, "",
       "element type of a raw actual file, when it differs from dtype"},
      {"shape", ParamType::String, false, "",
       "shape to read both files as, e.g. 1,64,112,112 (raw files are flat without it)"},
  };
  for (auto& spec : tolerance_and_report_params(false)) stage.params.push_back(std::move(spec));
  stage.run = run_compare_files;
  return stage;
}

}  // namespace asc::validator
