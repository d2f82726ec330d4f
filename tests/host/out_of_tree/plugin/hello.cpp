// An out-of-tree plugin offering one stage: hello.write writes "hello, <who>" to a file.
#include <asc/sdk/io.hpp>
#include <asc/sdk/plugin.hpp>

ASC_PLUGIN("hello_out_of_tree", "0.0.1", 0, "Out-of-tree example plugin") {
  registrar.add_stage({"hello.write",
                       "Writes \"hello, <who>\" to `out`",
                       {{"out", asc::ParamType::Path, true, "", "the file to write"},
                        {"who", asc::ParamType::String, false, "world", "whom to greet"}},
                       [](asc::PipelineContext&, const asc::StageParams& params) {
                         asc::write_text_atomically(params.get_path("out"), "hello, " + params.get_string("who") + "\n");
                       },
                       {}});
}
