// CSV and HTML escaping (asc/sdk/text_escape.hpp), against hand-written expectations.
#include <doctest/doctest.h>

#include <asc/sdk/text_escape.hpp>

TEST_CASE("csv_field quotes only fields that need it, doubling inner quotes (RFC 4180)") {
  CHECK(asc::csv_field("Conv_0") == "Conv_0");
  CHECK(asc::csv_field("") == "");
  CHECK(asc::csv_field("a,b") == "\"a,b\"");
  CHECK(asc::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(asc::csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(asc::csv_field("cr\r") == "\"cr\r\"");
}

TEST_CASE("csv_line joins escaped fields and ends the line") {
  CHECK(asc::csv_line({"Index", "Op,Type", "1.5"}) == "Index,\"Op,Type\",1.5\n");
  CHECK(asc::csv_line({}) == "\n");
}

TEST_CASE("html_escape makes text safe in elements, attributes and SVG") {
  CHECK(asc::html_escape("<b>&\"x\"'y'</b>") == "&lt;b&gt;&amp;&quot;x&quot;&#39;y&#39;&lt;/b&gt;");
  CHECK(asc::html_escape("plain text 1.5e-3") == "plain text 1.5e-3");
}
