// The reports: JSON fields, CSV with msit compare's column names, a self-contained HTML page, and
// atomic writes (no temporary file left behind).
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

namespace {

// golden/actual .npy files of shape 1x2x2x2 with a NaN and one off element; the reports in dir.
CommandResult failing_comparison(const TempDir& dir) {
  write_npy(dir / "golden.npy", floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}));
  write_npy(dir / "actual.npy", floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6.5f, std::nanf(""), 8}));
  return op_validate("--golden='" + (dir / "golden.npy").string() + "' --actual='" +
                         (dir / "actual.npy").string() + "' --op_name=Mul_6 --output='" +
                         (dir / "r.json").string() + "' --csv='" + (dir / "r.csv").string() + "' --html='" +
                         (dir / "r.html").string() + "'",
                     dir / "log");
}

}  // namespace

TEST_CASE("a precision failure still writes every report") {
  TempDir dir;
  const auto result = failing_comparison(dir);
  CHECK(result.exit_code == 1);
  for (const char* name : {"r.json", "r.csv", "r.html"}) CHECK(std::filesystem::exists(dir / name));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    CHECK(entry.path().filename().string().find(".tmp.") == std::string::npos);
}

TEST_CASE("the JSON report holds the metrics, classes and diagnosis") {
  TempDir dir;
  failing_comparison(dir);
  const auto report = nlohmann::json::parse(read_text(dir / "r.json"));
  CHECK(report["tool"] == "op_validate");
  CHECK(report["mode"] == "files");
  CHECK(report["op_name"] == "Mul_6");
  CHECK(report["result"] == "fail");
  CHECK(report["options"]["abs_tolerance"] == 1e-3);
  const auto& c = report["rows"][0]["comparison"];
  CHECK(c["failing_elements"] == 2);
  CHECK(c["error_classes"] == std::vector<std::string>{"absolute", "relative", "nan"});
  CHECK(c["nonfinite"]["actual"]["nan"] == 1);
  CHECK(c["nonfinite"]["actual"]["first_nan"][0] == "[0,1,1,0]");
  CHECK(c["worst_abs"][0]["coordinates"] == "[0,1,0,1]");
  CHECK(c["metrics"]["MaxAbsoluteError"] == 0.5);
  CHECK(c["metrics"]["StandardDeviation"].is_string());
  CHECK(c["min_tolerance"]["abs"].is_null());  // no tolerance passes with a NaN: Infinity -> null
  CHECK(c["histogram"]["zero"] == 6);
  CHECK(report["first_failures"][0]["criterion"] == "precision");
}

TEST_CASE("the CSV report uses msit compare's column names") {
  TempDir dir;
  failing_comparison(dir);
  const std::string csv = read_text(dir / "r.csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  CHECK(header.rfind("Index,OpType,NPUDump,DataType,GroundTruth,DataType,TensorIndex,Shape,OverFlow,"
                     "CosineSimilarity,MaxAbsoluteError,AccumulatedRelativeError,RelativeEuclideanDistance,"
                     "KullbackLeiblerDivergence,StandardDeviation,MeanAbsoluteError,RootMeanSquareError,"
                     "MaxRelativeError,MeanRelativeError,CompareFailReason,IsNpuOps,IsPrecisionError",
                     0) == 0);
  const std::string row = csv.substr(header.size() + 1);
  CHECK(row.rfind("0,,Mul_6,float32,Mul_6,float32,Mul_6:output:0,\"[1,2,2,2]\",NO,", 0) == 0);
  CHECK(row.find(",FAIL,absolute;relative;nan") != std::string::npos);
}

TEST_CASE("the HTML report is one self-contained page") {
  TempDir dir;
  failing_comparison(dir);
  const std::string html = read_text(dir / "r.html");
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<svg") != std::string::npos);  // the histogram
  CHECK(html.find("<style>") != std::string::npos);
  CHECK(html.find("<script>") != std::string::npos);
  CHECK(html.find("src=") == std::string::npos);  // nothing loaded from elsewhere
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("http://") == std::string::npos);
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("First operator failing the precision check") != std::string::npos);
  CHECK(html.find("class='op fail first'") != std::string::npos);
}
