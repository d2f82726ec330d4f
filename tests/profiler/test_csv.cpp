// CSV parsing as msprof writes it: quoted shapes with commas, doubled quotes, line breaks inside
// quotes, BOM, CRLF; malformed input is EE4004 naming file:line.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>

#include "msprof/csv_table.hpp"

using asc::profiler::find_column;
using asc::profiler::parse_csv;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_csv(text, "op_summary_1.csv");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::FileFormatInvalid);
    return error.message();
  }
  FAIL("no error for malformed CSV");
  return "";
}

// Each (row index, message) pair: reading that row with `read` is EE4004 whose message holds the text.
template <std::size_t N, class Table, class Read>
void check_refused_rows(const Table& table, const std::pair<std::size_t, std::string> (&refused)[N], Read read) {
  for (const auto& [row, message] : refused) {
    try {
      read(table.rows[row]);
      FAIL("row " << row << " was accepted");
    } catch (const asc::Error& error) {
      CHECK(error.code() == asc::ErrorCode::FileFormatInvalid);
      CHECK_MESSAGE(error.message().find(message) != std::string::npos, error.message());
    }
  }
}

}  // namespace

TEST_CASE("quoted fields keep their commas, semicolons and doubled quotes") {
  const auto table = parse_csv(
      "Op Name,Input Shapes,Note\n"
      "conv1,\"1,3,224,224;64,3,7,7\",\"say \"\"hi\"\"\"\n"
      "add,\"; ; ; ;\",plain\n",
      "x.csv");
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[0].fields[1] == "1,3,224,224;64,3,7,7");
  CHECK(table.rows[0].fields[2] == "say \"hi\"");
  CHECK(table.rows[1].fields[1] == "; ; ; ;");
  CHECK(table.rows[0].line == 2);
  CHECK(table.rows[1].line == 3);
}

TEST_CASE("a quoted field may span lines; line numbers count physical lines") {
  const auto table = parse_csv("a,b\n\"x\ny\",1\nlast,2\n", "x.csv");
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[0].fields[0] == "x\ny");
  CHECK(table.rows[1].line == 4);
}

TEST_CASE("BOM, CRLF, blank lines and header blanks are tolerated") {
  const auto table =
      parse_csv("\xEF\xBB\xBF Op Name , Task Duration(us)\r\nconv,1.5\r\n\r\nadd,2\r\n", "x.csv");
  CHECK(table.header[0] == "Op Name");
  CHECK(table.header[1] == "Task Duration(us)");
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[1].fields[1] == "2");
  CHECK(find_column(table, {"task duration(us)"}) == 1);
  CHECK(find_column(table, {"Block Dim", "Block Num"}) == std::string::npos);
}

TEST_CASE("a row with the wrong field count names file and line") {
  const std::string message = error_of("Op Name,Input Shapes,Task Duration(us)\nconv,1,3,224,224,5.0\n");
  CHECK(message.find("op_summary_1.csv:2:") == 0);
  CHECK(message.find("6 fields") != std::string::npos);
  CHECK(message.find("has 3") != std::string::npos);
}

TEST_CASE("an unterminated quote names the line it opened on") {
  const std::string message = error_of("a,b\nx,1\ny,\"1,2\nz,3\n");
  CHECK(message.find("op_summary_1.csv:3:") == 0);
  CHECK(message.find("never closed") != std::string::npos);
}

TEST_CASE("text after a closing quote is malformed") {
  const std::string message = error_of("a,b\n\"1,2\"x,3\n");
  CHECK(message.find("op_summary_1.csv:2:") == 0);
}

TEST_CASE("an empty file has no header") {
  CHECK(error_of("").find("op_summary_1.csv:1:") == 0);
}

TEST_CASE("time_at refuses negative, non-finite and absurd times naming file:line and column") {
  const auto table = parse_csv(
      "Op Name,Task Duration(us)\n"
      "ok,12.5\n"
      "na,N/A\n"
      "negative,-3\n"
      "huge,1e308\n"
      "nan,nan\n",
      "op_summary_1.csv");
  const std::size_t column = find_column(table, {"Task Duration(us)"});
  CHECK(asc::profiler::time_at(table, table.rows[0], column) == 12.5);
  CHECK_FALSE(asc::profiler::time_at(table, table.rows[1], column).has_value());
  const std::pair<std::size_t, std::string> refused[] = {
      {2, "op_summary_1.csv:4: column 'Task Duration(us)' is -3 us"},
      {3, "op_summary_1.csv:5: column 'Task Duration(us)' is 1e+308 us"},
      {4, "op_summary_1.csv:6: column 'Task Duration(us)' is NaN, not a time"}};
  check_refused_rows(table, refused, [&](const auto& row) { asc::profiler::time_at(table, row, column); });
}

TEST_CASE("integer_at refuses fractions and values beyond int naming file:line and column (fuzz_msprof: 1e121)") {
  const auto table = parse_csv(
      "Op Name,Stream ID\n"
      "ok,3\n"
      "na,N/A\n"
      "huge,1e121\n"
      "fraction,2.5\n"
      "below,-2147483649\n",
      "op_summary_1.csv");
  const std::size_t column = find_column(table, {"Stream ID"});
  CHECK(asc::profiler::integer_at(table, table.rows[0], column) == 3);
  CHECK_FALSE(asc::profiler::integer_at(table, table.rows[1], column).has_value());
  const std::pair<std::size_t, std::string> refused[] = {
      {2, "op_summary_1.csv:4: column 'Stream ID' is 1e+121, not a whole number"},
      {3, "op_summary_1.csv:5: column 'Stream ID' is 2.5, not a whole number"},
      {4, "op_summary_1.csv:6: column 'Stream ID' is -2.14748e+09, not a whole number"}};
  check_refused_rows(table, refused, [&](const auto& row) { asc::profiler::integer_at(table, row, column); });
}
