// CSV as msprof writes it (RFC 4180): comma-separated, fields quoted with '"' when they hold
// commas, quotes ("" inside) or line breaks. Shapes such as "1,3,224,224;64,3,7,7" are quoted.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asc::profiler {

struct CsvRow {
  std::size_t line = 0;  // 1-based line where the row starts
  std::vector<std::string> fields;
};

struct CsvTable {
  std::filesystem::path file;
  std::vector<std::string> header;  // names trimmed of surrounding blanks
  std::vector<CsvRow> rows;         // blank lines skipped; every row has header.size() fields
};

// Throws EE4004 naming file:line for an unterminated quote, text after a closing quote, a row
// whose field count differs from the header's, or a file without a header line. A UTF-8 byte
// order mark is skipped and CRLF line ends are accepted.
CsvTable parse_csv(std::string_view text, const std::filesystem::path& origin);

// Index of the first header name equal to one of `names` ignoring case, or npos.
std::size_t find_column(const CsvTable& table, std::initializer_list<std::string_view> names);

// The number in `row` at `column`: nullopt for N/A or an absent column (npos); EE4004 naming
// file:line, the column and the text for anything else that is not a number.
std::optional<double> number_at(const CsvTable& table, const CsvRow& row, std::size_t column);

// number_at for a whole number (stream and task IDs, block dims): EE4004 naming file:line and the
// column when it has a fraction or does not fit an int.
std::optional<int> integer_at(const CsvTable& table, const CsvRow& row, std::size_t column);
// `value` as an int; EE4004 naming `origin` and `what` when it has a fraction or does not fit.
int checked_int(double value, const std::string& origin, const std::string& what);

// Time values (microseconds) above this are refused: sums over any profile stay finite and exact
// to the microsecond (1e18 us is 31,700 years; msprof's epoch timestamps are about 1.7e15 us).
inline constexpr double kMaxTimeUs = 1e18;
// number_at for a time: EE4004 naming file:line and the column when it is NaN, negative or above
// kMaxTimeUs ("is -3 us", "is 1e+308 us").
std::optional<double> time_at(const CsvTable& table, const CsvRow& row, std::size_t column);
// EE4004 naming `origin` and `what` when `us` is negative or above kMaxTimeUs.
void check_time(double us, const std::string& origin, const std::string& what);

}  // namespace asc::profiler
