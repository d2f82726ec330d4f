#include "msprof/op_summary_reader.hpp"

#include <asc/sdk/error.hpp>

#include "analysis/text_format.hpp"

namespace asc::profiler {
namespace {

// Base columns (op_summary_assembler.cpp's order); anything else is a metric column.
constexpr std::string_view kBaseColumns[] = {"device_id",         "model id",
                                             "model name",        "infer id",
                                             "iteration id",      "task id",
                                             "stream id",         "op name",
                                             "op type",           "op state",
                                             "task type",         "task start time(us)",
                                             "task duration(us)", "task wait time(us)",
                                             "block dim",         "block num",
                                             "mix block dim",     "mix block num",
                                             "hf32 eligible",     "input shapes",
                                             "input data types",  "input formats",
                                             "output shapes",     "output data types",
                                             "output formats",    "context id"};

bool is_base_column(const std::string& name) {
  const std::string lower = to_lower(name);
  for (const std::string_view base : kBaseColumns)
    if (lower == base) return true;
  return false;
}

bool is_unprefixed_pmu(const std::string& name) {
  const std::string lower = to_lower(name);
  return lower == "aicore_time(us)" || lower == "total_cycles" || lower.ends_with("_ratio") ||
         (lower.ends_with("_time(us)") && lower.find("task") == std::string::npos);
}

class RowReader {
 public:
  RowReader(const CsvTable& table, const CsvRow& row) : table_(table), row_(row) {}

  std::string text(std::size_t column) const {
    return column == std::string::npos ? std::string() : trim(row_.fields[column]);
  }

  // nullopt for N/A or an absent column; EE4004 for anything else that is not a number.
  std::optional<double> number(std::size_t column) const { return number_at(table_, row_, column); }
  // number(), and EE4004 for a negative time or one past kMaxTimeUs.
  std::optional<double> time(std::size_t column) const { return time_at(table_, row_, column); }
  // number(), and EE4004 for a fraction or a value beyond int.
  std::optional<int> integer(std::size_t column) const { return integer_at(table_, row_, column); }

 private:
  const CsvTable& table_;
  const CsvRow& row_;
};

std::size_t required_column(const CsvTable& table, std::string_view name) {
  const std::size_t column = find_column(table, {name});
  if (column == std::string::npos) {
    std::string header;
    for (const std::string& item : table.header) header += (header.empty() ? "" : ", ") + item;
    throw Error(ErrorCode::FileFormatInvalid, table.file.string() + ":1: op_summary has no '" +
                                                  std::string(name) + "' column (header: " + header + ")");
  }
  return column;
}

}  // namespace

OpSummaryRows read_op_summary(const CsvTable& table) {
  const std::size_t op_name = required_column(table, "Op Name");
  const std::size_t duration = required_column(table, "Task Duration(us)");
  const std::size_t op_type = find_column(table, {"OP Type"});
  const std::size_t task_type = find_column(table, {"Task Type"});
  const std::size_t stream_id = find_column(table, {"Stream ID"});
  const std::size_t task_id = find_column(table, {"Task ID"});
  const std::size_t start = find_column(table, {"Task Start Time(us)"});
  const std::size_t wait = find_column(table, {"Task Wait Time(us)"});
  const std::size_t block = find_column(table, {"Block Dim", "Block Num"});
  const std::size_t model_name = find_column(table, {"Model Name"});
  const std::size_t input_shapes = find_column(table, {"Input Shapes"});
  const std::size_t input_dtypes = find_column(table, {"Input Data Types"});
  const std::size_t input_formats = find_column(table, {"Input Formats"});
  const std::size_t output_shapes = find_column(table, {"Output Shapes"});
  const std::size_t output_dtypes = find_column(table, {"Output Data Types"});
  const std::size_t output_formats = find_column(table, {"Output Formats"});

  OpSummaryRows result;
  if (block != std::string::npos) result.block_column = table.header[block];
  std::vector<std::size_t> metric_columns;
  bool prefixed = false, unprefixed = false;
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    if (is_base_column(table.header[c])) continue;
    metric_columns.push_back(c);
    if (starts_with_ignoring_case(table.header[c], "aic_") ||
        starts_with_ignoring_case(table.header[c], "aiv_"))
      prefixed = true;
    else if (is_unprefixed_pmu(table.header[c]))
      unprefixed = true;
  }
  result.pmu_naming = prefixed ? "aic_/aiv_ prefixed" : unprefixed ? "unprefixed" : "none";

  for (const CsvRow& row : table.rows) {
    const RowReader read(table, row);
    const auto duration_us = read.time(duration);
    if (!duration_us) {
      ++result.skipped_rows;
      continue;
    }
    ProfileEvent event;
    event.op_name = read.text(op_name);
    event.op_type = op_type == std::string::npos ? std::string("N/A") : read.text(op_type);
    if (task_type != std::string::npos) event.task_type = read.text(task_type);
    // -1: the column is there but N/A (communication tasks); 0 when the file has no such column.
    event.stream_id = read.integer(stream_id).value_or(stream_id == std::string::npos ? 0 : -1);
    event.task_id = read.integer(task_id).value_or(task_id == std::string::npos ? 0 : -1);
    event.block_dim = read.integer(block).value_or(0);
    const auto start_us = read.time(start);
    event.start_us = start_us.value_or(0);
    event.duration_us = *duration_us;
    event.wait_us = read.time(wait).value_or(0);
    event.input_shapes = read.text(input_shapes);
    event.input_dtypes = read.text(input_dtypes);
    event.input_formats = read.text(input_formats);
    event.output_shapes = read.text(output_shapes);
    event.output_dtypes = read.text(output_dtypes);
    event.output_formats = read.text(output_formats);
    for (const std::size_t c : metric_columns) {
      double value = 0;
      // Metric columns vary by product and version; a non-numeric one carries nothing we analyse.
      if (parse_number(row.fields[c], value) == NumberParse::Ok) event.metrics[table.header[c]] = value;
    }
    if (result.model_name.empty() && !is_not_available(read.text(model_name)))
      result.model_name = read.text(model_name);
    result.has_start.push_back(start_us.has_value());
    result.events.push_back(std::move(event));
  }
  return result;
}

}  // namespace asc::profiler
