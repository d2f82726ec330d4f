// atc: CANN ATC's command line over the asc host. Converts an ONNX model to an offline model
// (.om) by running configs/pipelines/atc.yaml (parse, fusion, compile for the SoC), or an .om to
// JSON with --mode=1. Prints ATC's console lines; errors are coded (docs/atc.md, docs/errors.md).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "asc/host/ascend_flags.hpp"
#include "asc/host/pipeline_runner.hpp"
#include "asc/host/tool_main.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/io.hpp"
#include "asc/sdk/log.hpp"
#include "atc_flags.hpp"
#include "atc_pipeline.hpp"
#include "atc_request.hpp"

namespace {

constexpr const char* kStartLine = "ATC start working now, please wait for a moment.";
constexpr const char* kFailedLine = "ATC run failed, Please check the detail log, Try 'atc --help' for more information";

// "EE1001 model file not found ...: x" -> "EE1001: model file not found ...: x", the form of
// ATC's "E10001: ..." lines.
std::string coded_line(const std::string& what) {
  const auto space = what.find(' ');
  if (space != 6 || what.rfind("EE", 0) != 0) return what;
  return what.substr(0, space) + ":" + what.substr(space);
}

int failed(asc::ErrorCode code, const std::string& line) {
  std::cout << kFailedLine << '\n' << line << std::endl;
  return asc::exit_code_for(code);
}

int run(const std::vector<std::string>& arguments) {
  std::optional<asc::host::ParsedFlags> flags;
  try {
    flags = asc::host::parse_ascend_flags("atc", asc::atc::atc_flag_specs(), arguments);
  } catch (const asc::Error& error) {
    std::cout << kStartLine << std::endl;
    return failed(error.code(), coded_line(error.what()));
  }
  if (flags->get_bool("help")) {
    std::cout << asc::atc::atc_help();
    return 0;
  }
  if (flags->has("log")) asc::set_log_level(*asc::parse_log_level(flags->get("log")));
  std::cout << kStartLine << std::endl;

  std::vector<std::string> command{"atc"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  const auto request = asc::atc::build_request(*flags, asc::atc::command_line_text(command));
  asc::atc::run_request(request);
  if (request.mode == asc::atc::AtcMode::OmToJson)
    std::cout << "ATC run success, welcome to the next use." << std::endl;
  else
    std::cout << "ATC run success, the model save path is " << request.saved_path << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  asc::remove_temporary_files_on_signal();
  try {
    return run({argv + 1, argv + argc});
  } catch (const asc::host::StageFailure& failure) {
    // "stage 'X' (file:line) failed: EE1001 ...": the stage's own coded error leads, the stage follows.
    const std::string what = failure.what();
    const auto cause = what.find("failed: ");
    if (cause == std::string::npos) return failed(failure.code(), what);
    return failed(failure.code(), coded_line(what.substr(cause + 8)) + "\n        in " + what.substr(0, cause - 1));
  } catch (const asc::Error& error) {
    return failed(error.code(), coded_line(error.what()));
  } catch (const std::exception& unexpected) {
    const asc::Error error = asc::host::coded_error(unexpected);
    return failed(error.code(), coded_line(error.what()));
  } catch (...) {
    return failed(asc::ErrorCode::Internal,
                  coded_line(asc::Error(asc::ErrorCode::Internal, "unknown exception").what()));
  }
}
