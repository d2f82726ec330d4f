#include "msprof/csv_table.hpp"

#include <asc/sdk/error.hpp>

#include "analysis/text_format.hpp"
#include <cmath>
#include <cstdio>
#include <limits>

namespace asc::profiler {
namespace {

[[noreturn]] void malformed(const std::filesystem::path& origin, std::size_t line, const std::string& what) {
  throw Error(ErrorCode::FileFormatInvalid, origin.string() + ":" + std::to_string(line) + ": " + what);
}

bool blank(const std::vector<std::string>& fields) {
  return fields.size() == 1 && trim(fields[0]).empty();
}

// Splits the text into records; quoted fields may contain commas, quotes and line breaks.
std::vector<CsvRow> split_records(std::string_view text, const std::filesystem::path& origin) {
  std::vector<CsvRow> records;
  std::size_t line = 1, i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    CsvRow row;
    row.line = line;
    std::string field;
    bool end_of_record = false;
    while (!end_of_record) {
      if (i < n && text[i] == '"') {
        const std::size_t opened_on = line;
        ++i;
        for (;;) {
          if (i >= n) malformed(origin, opened_on, "a quoted field opened on this line is never closed");
          const char c = text[i++];
          if (c == '"') {
            if (i < n && text[i] == '"') {
              field += '"';
              ++i;
              continue;
            }
            break;
          }
          if (c == '\n') ++line;
          field += c;
        }
        // Only blanks may follow a closing quote before the separator.
        while (i < n && (text[i] == ' ' || text[i] == '\t')) ++i;
        if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
          malformed(origin, line,
                    "unexpected text after the closing quote of field " +
                        std::to_string(row.fields.size() + 1) + " (\"" + field + "\")");
      } else {
        while (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') field += text[i++];
      }
      row.fields.push_back(std::move(field));
      field.clear();
      if (i >= n) {
        end_of_record = true;
      } else if (text[i] == ',') {
        ++i;
      } else {  // '\r' or '\n'
        if (text[i] == '\r') ++i;
        if (i < n && text[i] == '\n') ++i;
        ++line;
        end_of_record = true;
      }
    }
    if (!blank(row.fields)) records.push_back(std::move(row));
  }
  return records;
}

}  // namespace

CsvTable parse_csv(std::string_view text, const std::filesystem::path& origin) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<CsvRow> records = split_records(text, origin);
  if (records.empty()) malformed(origin, 1, "the file is empty: expected a header line");
  CsvTable table;
  table.file = origin;
  for (const std::string& name : records.front().fields) table.header.push_back(trim(name));
  for (std::size_t r = 1; r < records.size(); ++r) {
    CsvRow& row = records[r];
    if (row.fields.size() != table.header.size())
      malformed(origin, row.line,
                "the row has " + std::to_string(row.fields.size()) + " fields but the header (line " +
                    std::to_string(records.front().line) + ") has " + std::to_string(table.header.size()) +
                    " (a shape list with commas must be quoted)");
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::size_t find_column(const CsvTable& table, std::initializer_list<std::string_view> names) {
  for (std::size_t i = 0; i < table.header.size(); ++i)
    for (const std::string_view name : names)
      if (equal_ignoring_case(table.header[i], name)) return i;
  return std::string::npos;
}

std::optional<double> number_at(const CsvTable& table, const CsvRow& row, std::size_t column) {
  if (column == std::string::npos) return std::nullopt;
  double value = 0;
  switch (parse_number(row.fields[column], value)) {
    case NumberParse::Ok:
      return value;
    case NumberParse::NotAvailable:
      return std::nullopt;
    case NumberParse::Invalid:
      break;
  }
  malformed(table.file, row.line, "column '" + table.header[column] + "' = '" + row.fields[column] + "' is not a number");
}

std::optional<double> time_at(const CsvTable& table, const CsvRow& row, std::size_t column) {
  // Elsewhere "nan" reads as not available (pandas writes it for an empty cell); a time of NaN is
  // the result of a broken computation, which every sum over the profile would carry on.
  if (column != std::string::npos && to_lower(trim(row.fields[column])) == "nan")
    malformed(table.file, row.line, "column '" + table.header[column] + "' is NaN, not a time");
  const auto value = number_at(table, row, column);
  if (value)
    check_time(*value, table.file.string() + ":" + std::to_string(row.line), "column '" + table.header[column] + "'");
  return value;
}

std::optional<int> integer_at(const CsvTable& table, const CsvRow& row, std::size_t column) {
  const auto value = number_at(table, row, column);
  if (!value) return std::nullopt;
  return checked_int(*value, table.file.string() + ":" + std::to_string(row.line), "column '" + table.header[column] + "'");
}

int checked_int(double value, const std::string& origin, const std::string& what) {
  // Converting a double outside int's range to int is undefined behaviour (fuzz_msprof: 1e121).
  if (value == std::trunc(value) && value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max())
    return static_cast<int>(value);
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  throw Error(ErrorCode::FileFormatInvalid, origin + ": " + what + " is " + text + ", not a whole number from " +
                                                std::to_string(std::numeric_limits<int>::min()) + " to " +
                                                std::to_string(std::numeric_limits<int>::max()));
}

void check_time(double us, const std::string& origin, const std::string& what) {
  if (us >= 0 && us <= kMaxTimeUs) return;
  char text[32];
  std::snprintf(text, sizeof text, "%g", us);
  throw Error(ErrorCode::FileFormatInvalid, origin + ": " + what + " is " + text + " us; a time is 0 to 1e18 us");
}

}  // namespace asc::profiler
