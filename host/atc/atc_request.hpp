// An atc command line checked and turned into what to run: the pipeline (atc.yaml for
// --mode=0, om_to_json.yaml for --mode=1), its variables, and the plugin directories.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "asc/host/ascend_flags.hpp"
#include "asc/host/pipeline_variables.hpp"

namespace asc::atc {

enum class AtcMode { Compile, OmToJson };

struct AtcRequest {
  AtcMode mode = AtcMode::Compile;
  // Only for the flags given: the pipeline's declared defaults stand for the rest.
  std::vector<host::VariableAssignment> variables;
  std::vector<std::filesystem::path> op_lib_dirs;  // searched for plugins before the usual path
  std::string saved_path;  // the .om as the success line names it: "./resnet50.om"
};

// Checks the flags (EE5008 for a missing or invalid flag, EE1008 for an unsupported
// --framework, EE1009 for a bad shape string, EE4001 for a missing --keep_dtype file or
// --op_lib_path directory) and maps them to pipeline variables. `command_line` is recorded in
// the .om.
AtcRequest build_request(const host::ParsedFlags& flags, const std::string& command_line);

// The command line as one string a shell would read back the same: arguments with spaces,
// quotes or shell characters are single-quoted.
std::string command_line_text(const std::vector<std::string>& argv);

}  // namespace asc::atc
