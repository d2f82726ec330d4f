// Stages for the host's tests. They write what they were given to files, so the tests can see
// the order stages ran in and the values variables and --set produced.
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "asc/sdk/error.hpp"
#include "asc/sdk/plugin.hpp"

namespace {

using asc::ParamType;

void append_line(const std::filesystem::path& file, const std::string& line) {
  std::ofstream out(file, std::ios::app);
  out << line << '\n';
  if (!out) throw asc::Error(asc::ErrorCode::FileWriteFailed, "cannot append to " + file.string());
}

void append_text(asc::PipelineContext&, const asc::StageParams& params) {
  append_line(params.get_path("file"), params.get_string("text"));
}

void append_typed(asc::PipelineContext&, const asc::StageParams& params) {
  std::ostringstream line;
  line << "count=" << params.get_int("count") << " ratio=" << params.get_float("ratio")
       << " flag=" << (params.get_bool("flag") ? "true" : "false") << " items=";
  if (params.has("items")) {
    const auto items = params.get_list("items");
    for (std::size_t i = 0; i < items.size(); ++i) line << (i > 0 ? "|" : "") << items[i];
  } else {
    line << "(none)";
  }
  append_line(params.get_path("file"), line.str());
}

}  // namespace

ASC_PLUGIN("test_stages", "1.2.3", 0, "Stages for the host's tests") {
  registrar.add_stage({"test.append",
                       "Appends `text` as a line to `file`",
                       {{"file", ParamType::Path, true, "", "the file to append to"},
                        {"text", ParamType::String, true, "", "the line to append"}},
                       append_text,
                       {}});
  registrar.add_stage({"test.typed",
                       "Appends its typed parameters as one line to `file`",
                       {{"file", ParamType::Path, true, "", "the file to append to"},
                        {"count", ParamType::Int, true, "", "an integer"},
                        {"ratio", ParamType::Float, false, "0.5", "a number"},
                        {"flag", ParamType::Bool, false, "false", "a boolean"},
                        {"items", ParamType::StringList, false, "", "a list"}},
                       append_typed,
                       {}});
  registrar.add_stage({"test.fail",
                       "Fails with EE8001 and `message`",
                       {{"message", ParamType::String, false, "deliberate failure", "the error message"}},
                       [](asc::PipelineContext&, const asc::StageParams& params) {
                         throw asc::Error(asc::ErrorCode::ExecutionFailed, params.get_string("message"));
                       },
                       {}});
  registrar.add_stage({"test.crash",
                       "Throws a std::runtime_error (a bug, as the host sees it)",
                       {},
                       [](asc::PipelineContext&, const asc::StageParams&) { throw std::runtime_error("not an asc::Error"); },
                       {}});
}
