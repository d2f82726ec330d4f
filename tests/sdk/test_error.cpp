#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "asc/sdk/error.hpp"

using asc::ErrorCode;

TEST_CASE("error ids are EE plus four digits") {
  CHECK(asc::error_code_id(ErrorCode::ModelNotFound) == "EE1001");
  CHECK(asc::error_code_id(ErrorCode::ModelCorrupt) == "EE1002");
  CHECK(asc::error_code_id(ErrorCode::FileFormatInvalid) == "EE4004");
  CHECK(asc::error_code_id(ErrorCode::PluginDuplicate) == "EE6007");
  CHECK(asc::error_code_id(ErrorCode::Internal) == "EE9001");
}

TEST_CASE("what() reads '<id> <summary>: <message>'") {
  const asc::Error error(ErrorCode::ModelCorrupt, "model.onnx is not protobuf");
  const std::string expected =
      "EE1002 " + std::string(asc::error_code_summary(ErrorCode::ModelCorrupt)) + ": model.onnx is not protobuf";
  CHECK(std::string(error.what()) == expected);
  CHECK(error.code() == ErrorCode::ModelCorrupt);
  CHECK(error.message() == "model.onnx is not protobuf");
}

TEST_CASE("all_error_codes lists every enumerator once, in numeric order") {
  const auto codes = asc::all_error_codes();
  // 9 parsing + 5 operator + 1 memory + 4 file + 8 configuration + 7 plugin + 3 validation
  // + 3 execution + 1 internal enumerators in error.hpp.
  CHECK(codes.size() == 41);
  CHECK(codes.front() == ErrorCode::ModelNotFound);
  CHECK(codes.back() == ErrorCode::Internal);
  CHECK(std::adjacent_find(codes.begin(), codes.end(), [](ErrorCode a, ErrorCode b) {
          return static_cast<int>(a) >= static_cast<int>(b);
        }) == codes.end());
  for (const ErrorCode code : codes) {
    CAPTURE(static_cast<int>(code));
    CHECK_FALSE(asc::error_code_summary(code).empty());
    CHECK(asc::error_code_summary(code) != "unknown error");
  }
}

TEST_CASE("exit codes are 10 plus the class digit") {
  CHECK(asc::exit_code_for(ErrorCode::ModelNotFound) == 11);
  CHECK(asc::exit_code_for(ErrorCode::UnsupportedOperator) == 12);
  CHECK(asc::exit_code_for(ErrorCode::MemoryAllocationFailed) == 13);
  CHECK(asc::exit_code_for(ErrorCode::FileWriteFailed) == 14);
  CHECK(asc::exit_code_for(ErrorCode::UsageError) == 15);
  CHECK(asc::exit_code_for(ErrorCode::PluginNotFound) == 16);
  CHECK(asc::exit_code_for(ErrorCode::ValidationFailed) == 17);
  CHECK(asc::exit_code_for(ErrorCode::InputMismatch) == 18);
  CHECK(asc::exit_code_for(ErrorCode::Internal) == 19);
}
