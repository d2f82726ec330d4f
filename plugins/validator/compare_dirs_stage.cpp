#include <asc/sdk/error.hpp>
#include <filesystem>
#include <vector>

#include "compare_stages.hpp"
#include "network_comparison.hpp"
#include "report_outputs.hpp"

namespace asc::validator {
namespace {

// Every regular file under the dump directories: the files the comparison may have read.
std::vector<std::filesystem::path> files_under(std::initializer_list<std::filesystem::path> dirs) {
  std::vector<std::filesystem::path> files;
  for (const std::filesystem::path& dir : dirs) {
    std::error_code error;
    for (std::filesystem::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
      if (it->is_regular_file(error)) files.push_back(it->path());
  }
  return files;
}

constexpr const char* kStage = "validator.compare_dirs";

void run(PipelineContext& ctx, const StageParams& params) {
  const ComparisonOptions options = options_from(params);
  const auto golden_dir = params.get_path("golden_dir"), actual_dir = params.get_path("actual_dir");
  const NetworkComparison comparison =
      compare_dump_directories(golden_dir, actual_dir, options, criteria_from(params));
  const ReportContext context{"dirs", "", golden_dir.string(), actual_dir.string()};
  const std::string reports = publish_reports(ctx, params, comparison, context, files_under({golden_dir, actual_dir}));
  const std::string where = reports.empty() ? "" : "; reports: " + reports;
  for (const NetworkRow& row : comparison.rows)
    if (row.kind == RowKind::NotComparable)
      throw Error(*row.error, std::to_string(comparison.not_comparable) +
                                  " output(s) could not be compared, the first: " + row.note + where);
  if (!comparison.first_failing_row) return;
  const NetworkRow& first = comparison.rows[*comparison.first_failing_row];
  std::string classes;
  for (const auto& name : first.comparison->error_classes) classes += (classes.empty() ? "" : ", ") + name;
  throw Error(ErrorCode::ValidationFailed,
              std::to_string(comparison.failed) + " of " + std::to_string(comparison.compared) +
                  " compared outputs fail; the first is '" + first.actual_node + "' (" +
                  first.actual_op_type + ") output " + std::to_string(first.output_index) + " [" + classes +
                  "]" + where);
}

}  // namespace

StageDefinition compare_dirs_stage() {
  StageDefinition stage;
  stage.name = kStage;
  stage.description =
      "compare every operator output of two dump directories (manifest.json), matched through provenance";
  stage.params = {
      {"golden_dir", ParamType::Path, true, "",
       "dump directory of the golden run (e.g. reference.run dump_dir)"},
      {"actual_dir", ParamType::Path, true, "", "dump directory of the run to check"},
  };
  for (auto& spec : tolerance_and_report_params(true)) stage.params.push_back(std::move(spec));
  stage.run = run;
  return stage;
}

}  // namespace asc::validator
