// msprof's collection command line (reference §2.1):
//   msprof [options] <app> [app args]        (the recommended form)
//   msprof [options] --application="<app> [app args]"
// Options come first; the first argument that is not an option starts the application. Every
// option takes a value (--name=value or --name value); `-` and `_` are interchangeable in names.
// The options the simulated runtime acts on are --output, --ai-core, --aic-mode, --aic-freq,
// --aic-metrics and --task-time; the others are checked, accepted and recorded in the collection
// request (PROF_*/device_0/sample.json).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace asc::msprof {

struct Invocation {
  bool help = false;
  std::vector<std::string> application;  // the program and its arguments
  std::filesystem::path output;          // absolute
  nlohmann::ordered_json sample_config;  // what goes into PROFILER_SAMPLECONFIG
};

// Throws asc::Error EE5008 for a bad command line (unknown flag, bad value, no application, an
// application given twice, a mode this msprof does not have) and EE5007 for an --aic-metrics
// group the simulator does not model.
Invocation parse_command_line(const std::vector<std::string>& arguments);

// `text` split as a shell splits words: blanks separate, '...' and "..." group, \ escapes.
// Throws EE5008 for an unterminated quote.
std::vector<std::string> split_words(const std::string& text);

std::string usage();

}  // namespace asc::msprof
