#include "network_comparison.hpp"

#include <algorithm>
#include <asc/sdk/io.hpp>
#include <tuple>
#include <unordered_map>

#include "analyser_rules.hpp"
#include "dump_manifest.hpp"

namespace asc::validator {
namespace {

constexpr std::size_t kUnmatched = static_cast<std::size_t>(-1);

// For each actual node, the index of its golden counterpart (kUnmatched when there is none).
std::vector<std::size_t> match_nodes(const DumpManifest& golden, const DumpManifest& actual) {
  // Original node name -> the last golden node (execution order) that stands for it.
  std::unordered_map<std::string, std::size_t> golden_owner;
  for (std::size_t g = 0; g < golden.nodes.size(); ++g) {
    const DumpedNode& node = golden.nodes[g];
    if (node.provenance.empty()) golden_owner[node.name] = g;
    for (const std::string& original : node.provenance) golden_owner[original] = g;
  }
  std::vector<std::size_t> counterpart(actual.nodes.size(), kUnmatched);
  for (std::size_t a = 0; a < actual.nodes.size(); ++a)
    for (const std::string& original : actual.nodes[a].provenance)
      if (const auto it = golden_owner.find(original); it != golden_owner.end())
        counterpart[a] = counterpart[a] == kUnmatched ? it->second : std::max(counterpart[a], it->second);
  return counterpart;
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ",") + item;
  return text;
}

NetworkRow compare_output(const DumpManifest& golden_dump, const DumpedNode& golden,
                          const DumpManifest& actual_dump, const DumpedNode& actual,
                          const DumpedOutput& output, const ComparisonOptions& options,
                          const VerdictCriteria& criteria) {
  NetworkRow row;
  row.actual_node = actual.name;
  row.actual_op_type = actual.op_type;
  row.provenance = actual.provenance;
  row.golden_node = golden.name;
  row.golden_op_type = golden.op_type;
  row.output_index = output.index;
  row.actual_dtype = output.dtype;
  row.shape = output.shape;
  const DumpedOutput* golden_output = golden.output(output.index);
  if (!golden_output) {
    row.kind = RowKind::ActualOnly;
    row.note = "golden node '" + golden.name + "' has no output " + std::to_string(output.index);
    return row;
  }
  row.golden_dtype = golden_output->dtype;
  row.shape = golden_output->shape;
  const Tensor golden_tensor = read_npy(golden_dump.dir / golden_output->file);
  const Tensor actual_tensor = read_npy(actual_dump.dir / output.file);
  try {
    VerdictCriteria effective = criteria;  // the golden's own precision bounds it too
    if (const auto dtype = parse_dtype(golden_output->precision);
        criteria.kind == CriteriaKind::Network && dtype && is_floating(*dtype))
      effective = network_criteria(lower_precision(criteria.precision, *dtype), criteria.nonfinite_in_error_rate);
    row.comparison = compare_tensors(golden_tensor.view(), actual_tensor.view(), options, effective);
  } catch (const Error& error) {
    if (error.code() != ErrorCode::ValidationShapeMismatch &&
        error.code() != ErrorCode::ValidationDtypeMismatch)
      throw;
    row.kind = RowKind::NotComparable;
    row.error = error.code();
    row.note = error.what();
  }
  return row;
}

// One row per dumped output of an actual node that has no golden counterpart.
std::vector<NetworkRow> actual_only_rows(const DumpedNode& node) {
  NetworkRow row;
  row.kind = RowKind::ActualOnly;
  row.actual_node = node.name;
  row.actual_op_type = node.op_type;
  row.provenance = node.provenance;
  row.note = node.provenance.empty()
                 ? "no provenance: inserted by the compiler, no golden counterpart"
                 : "its original nodes (" + join(node.provenance) + ") are not in the golden dump";
  if (node.outputs.empty()) return {row};
  std::vector<NetworkRow> rows;
  for (const DumpedOutput& output : node.outputs) {
    row.output_index = output.index;
    row.actual_dtype = output.dtype;
    row.shape = output.shape;
    rows.push_back(row);
  }
  return rows;
}

NetworkRow golden_only_row(const DumpedNode& golden, const std::string& reason) {
  NetworkRow row;
  row.kind = RowKind::GoldenOnly;
  row.golden_node = golden.name;
  row.golden_op_type = golden.op_type;
  if (!golden.outputs.empty()) {
    row.golden_dtype = golden.outputs.front().dtype;
    row.shape = golden.outputs.front().shape;
  }
  row.note = reason;
  return row;
}

// Why a golden node has no actual counterpart: swallowed by a fused kernel, or simply absent.
std::string golden_only_reason(const DumpedNode& golden, const DumpManifest& actual) {
  std::vector<std::string> originals = golden.provenance;
  if (originals.empty()) originals.push_back(golden.name);
  for (const DumpedNode& node : actual.nodes)
    for (const std::string& original : originals)
      if (std::find(node.provenance.begin(), node.provenance.end(), original) != node.provenance.end())
        return "fused into '" + node.name + "' (compared at its output)";
  return "no node of the actual dump stands for it";
}

void note_first_failures(NetworkComparison& result) {
  result.first_failures.clear();
  result.first_failing_row.reset();
  auto first = [&](const std::string& criterion, auto&& violated) {
    for (std::size_t r = 0; r < result.rows.size(); ++r) {
      const NetworkRow& row = result.rows[r];
      if (!row.comparison) continue;
      if (const auto value = violated(*row.comparison)) {
        result.first_failures.push_back({criterion, r, *value});
        return;
      }
    }
  };
  using Maybe = std::optional<double>;
  first("precision", [](const TensorComparison& c) { return c.passed ? Maybe{} : Maybe{c.error_rate}; });
  for (const std::string error_class :
       {"absolute", "relative", "cosine", "relative_distance", "nan", "inf", "scale_offset", "fp16_overflow"})
    first(error_class, [&](const TensorComparison& c) {
      const auto& classes = c.error_classes;
      return std::find(classes.begin(), classes.end(), error_class) == classes.end() ? Maybe{}
                                                                                     : Maybe{c.error_rate};
    });
  for (const AnalyserRule& rule : analyser_rules())
    first(rule.describe(), [&](const TensorComparison& c) {
      return rule.violated_by(c.metrics) ? Maybe{rule.value_of(c.metrics)} : Maybe{};
    });
  if (!result.first_failures.empty() && result.first_failures.front().criterion == "precision")
    result.first_failing_row = result.first_failures.front().row;
}

}  // namespace

NetworkComparison compare_dump_directories(const std::filesystem::path& golden_dir,
                                           const std::filesystem::path& actual_dir,
                                           const ComparisonOptions& options, const VerdictCriteria& criteria) {
  const DumpManifest golden = read_dump_manifest(golden_dir);
  const DumpManifest actual = read_dump_manifest(actual_dir);
  const std::vector<std::size_t> counterpart = match_nodes(golden, actual);

  // Sort key (golden position, actual position): actual-only nodes follow the matched node that
  // precedes them in actual execution order; golden-only rows use actual position -1.
  using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // + output index
  std::vector<std::pair<Key, NetworkRow>> keyed;
  std::int64_t previous_golden = -1;
  std::vector<bool> golden_compared(golden.nodes.size(), false);
  DType precision = DType::Float64;  // the lowest floating precision dumped so far (network criteria)
  for (std::size_t a = 0; a < actual.nodes.size(); ++a) {
    const DumpedNode& node = actual.nodes[a];
    const auto position = static_cast<std::int64_t>(a);
    for (const DumpedOutput& output : node.outputs)
      if (const auto dtype = parse_dtype(output.precision); dtype && is_floating(*dtype))
        precision = lower_precision(precision, *dtype);
    const VerdictCriteria row_criteria =
        criteria.kind == CriteriaKind::Network ? network_criteria(precision, criteria.nonfinite_in_error_rate)
                                               : criteria;
    if (counterpart[a] == kUnmatched) {
      for (const NetworkRow& row : actual_only_rows(node))
        keyed.push_back({{previous_golden, position, row.output_index}, row});
      continue;
    }
    previous_golden = static_cast<std::int64_t>(counterpart[a]);
    golden_compared[counterpart[a]] = true;
    for (const DumpedOutput& output : node.outputs)
      keyed.push_back({{previous_golden, position, output.index},
                       compare_output(golden, golden.nodes[counterpart[a]], actual, node, output, options,
                                      row_criteria)});
  }
  for (std::size_t g = 0; g < golden.nodes.size(); ++g)
    if (!golden_compared[g])
      keyed.push_back({{static_cast<std::int64_t>(g), -1, -1},
                       golden_only_row(golden.nodes[g], golden_only_reason(golden.nodes[g], actual))});
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });

  NetworkComparison result;
  result.golden_dir = golden_dir;
  result.actual_dir = actual_dir;
  result.options = options;
  result.criteria = criteria;
  for (auto& [key, row] : keyed) result.rows.push_back(std::move(row));
  summarize(result);
  return result;
}

void summarize(NetworkComparison& result) {
  result.compared = result.failed = result.actual_only = result.golden_only = result.not_comparable = 0;
  for (const NetworkRow& row : result.rows) {
    switch (row.kind) {
      case RowKind::Compared:
        ++result.compared;
        break;
      case RowKind::ActualOnly:
        ++result.actual_only;
        break;
      case RowKind::GoldenOnly:
        ++result.golden_only;
        break;
      case RowKind::NotComparable:
        ++result.not_comparable;
        break;
    }
    if (row.comparison && !row.comparison->passed) ++result.failed;
  }
  note_first_failures(result);
}

}  // namespace asc::validator
