// Whole-network comparison of two dump directories: every operator output of the actual run
// against the golden run's output of the original node it stands for.
//
// Matching goes through provenance. An actual node's counterpart is the golden node that owns
// the LAST of its original nodes in golden execution order, so a fused kernel (Conv+Relu) is
// compared at its last original node's output (the Relu's); outputs match by index. Actual nodes
// without a counterpart (no provenance, or names the golden run never executed) and golden nodes
// nothing was compared with (fused-away intermediates, or missing) are listed, not dropped.
// Rows are in golden execution order.
#pragma once

#include <asc/sdk/error.hpp>
#include <asc/sdk/validator.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tensor_comparison.hpp"

namespace asc::validator {

enum class RowKind {
  Compared,
  ActualOnly,     // no golden counterpart (msit's "*" ground truth: an NPU-only operator)
  GoldenOnly,     // no actual output was compared with this golden node
  NotComparable,  // counterpart found but the tensors cannot be compared (EE7001/EE7002)
};

struct NetworkRow {
  RowKind kind = RowKind::Compared;
  std::string actual_node, actual_op_type;
  std::vector<std::string> provenance;  // the actual node's original nodes
  std::string golden_node, golden_op_type;
  std::int64_t output_index = -1;  // -1 for golden-only rows (the whole node)
  std::string actual_dtype, golden_dtype;
  Shape shape;  // golden's when known, else actual's
  std::optional<TensorComparison> comparison;
  std::string note;                // why it was not compared (msit's CompareFailReason)
  std::optional<ErrorCode> error;  // for NotComparable rows
  bool failed() const { return kind == RowKind::NotComparable || (comparison && !comparison->passed); }
};

// The first row (golden execution order) failing one criterion.
struct FirstFailure {
  std::string criterion;  // "precision", "absolute", "relative", "nan", "inf", or an analyser rule
  std::size_t row = 0;
  double value = 0;  // the metric value for analyser rules, the error rate otherwise
};

struct NetworkComparison {
  std::filesystem::path golden_dir, actual_dir;
  ComparisonOptions options;
  VerdictCriteria criteria;  // the kind and the NaN/Inf rule; rows hold their own precision
  std::vector<NetworkRow> rows;
  std::vector<FirstFailure> first_failures;
  std::optional<std::size_t> first_failing_row;  // first row failing the precision check
  std::int64_t compared = 0, failed = 0, actual_only = 0, golden_only = 0, not_comparable = 0;
  bool passed() const { return failed == 0 && not_comparable == 0; }
};

// Throws EE4001/EE4004 for missing or malformed dump directories, manifests or files; tensors that
// cannot be compared become NotComparable rows (the stage reports them, then throws).
// Under CriteriaKind::Network each output is judged at the lowest precision among its own values
// and every actual output dumped before it (rounding errors travel downstream): float16 for
// every operator after the first fp16 one.
NetworkComparison compare_dump_directories(const std::filesystem::path& golden_dir,
                                           const std::filesystem::path& actual_dir,
                                           const ComparisonOptions& options,
                                           const VerdictCriteria& criteria = {});

// Fills the counts, first_failures and first_failing_row from `rows` (compare_dump_directories
// does this; a single-file comparison builds its one row and calls it).
void summarize(NetworkComparison& comparison);

}  // namespace asc::validator
