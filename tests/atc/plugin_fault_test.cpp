// Faults in operator plugin code, found where they are: a kernel whose output breaks what its
// inference declared (under ais_bench on the simulator and asc run on the reference backend), and a
// plugin that re-registers a built-in operator (refused itself; the built-in library stays).
#include <doctest/doctest.h>

#include "atc_support.hpp"

namespace asc::atc::testing {
namespace {

using host::testing::run_process;
using host::testing::ScratchDir;
namespace fs = std::filesystem;

bool fault_text_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

// Compiles a tests/atc model with the custom operators into `cwd`/<output>.om.
fs::path compile_custom(const std::string& model_name, const std::string& output, const ScratchDir& cwd) {
  const auto run =
      run_atc({"--model=" + model(model_name).string(), "--framework=5", "--output=" + output,
               "--soc_version=Ascend310P3", std::string("--op_lib_path=") + ASC_ATC_CUSTOM_OPS_DIR},
              cwd);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return cwd / (output + ".om");
}

struct Fault {
  const char* model;
  const char* node;
  const char* produced;  // dtype and shape the kernel returns
};

// EE8001 at the custom node, naming its op type with domain, the plugin, output 0 and both types;
// never at relu_after, the next node.
void check_names_the_kernel(const host::testing::ProcessResult& run, const Fault& fault,
                            const std::string& op_type) {
  const std::string text = run.out + run.err;
  INFO(text);
  CHECK(run.exit_code == 18);
  CHECK(fault_text_contains(text, "EE8001"));
  CHECK(fault_text_contains(text, std::string("node '") + fault.node + "' (com.example." + op_type +
                           ") from plugin 'atc_test_custom_ops'"));
  CHECK(fault_text_contains(text, std::string("output 0 'h' is ") + fault.produced));
  CHECK(fault_text_contains(text, "shape inference declared float32[1,4,8,8]"));
  CHECK_FALSE(fault_text_contains(text, "relu_after"));
  CHECK_FALSE(fault_text_contains(text, "EE9001"));
}

}  // namespace

TEST_CASE(
    "a kernel output that breaks its inference is EE8001 at its own node, on the simulator and the "
    "reference") {
  const std::vector<std::pair<Fault, std::string>> faults{
      {{"custom_wrong_shape.onnx", "wrong1", "float32[1,4,8]"}, "WrongShapeOp"},
      {{"custom_float64.onnx", "wide1", "float64[1,4,8,8]"}, "Float64Op"}};
  for (const auto& [fault, op_type] : faults) {
    const std::string& model_name = fault.model;  // clang 14 cannot capture a structured binding
    INFO(model_name);
    ScratchDir cwd;
    const fs::path om = compile_custom(fault.model, "faulty", cwd);
    check_names_the_kernel(
        run_process(quoted(ASC_AIS_BENCH) + " --model " + quoted(om) + " --output " + quoted(cwd / "out"),
                    cwd),
        fault, op_type);
    check_names_the_kernel(
        run_process(quoted(ASC_EXECUTABLE) + " run " +
                        quoted(fs::path(ASC_SOURCE_DIR) / "configs/pipelines/run_reference.yaml") +
                        " --plugin-dir " + quoted(ASC_ATC_CUSTOM_OPS_DIR) + " --set model=" +
                        quoted(model(fault.model)) + " --set output_dir=" + quoted(cwd / "ref"),
                    cwd),
        fault, op_type);
    CHECK_FALSE(fs::exists(cwd / "ref" / "y.npy"));
  }
  // The faultless plugin operator still runs on both.
  ScratchDir cwd;
  const fs::path om = compile_custom("custom_op.onnx", "good", cwd);
  const auto bench =
      run_process(quoted(ASC_AIS_BENCH) + " --model " + quoted(om) + " --output " + quoted(cwd / "out"), cwd);
  CHECK_MESSAGE(bench.exit_code == 0, bench.err);
}

TEST_CASE(
    "a plugin re-registering a built-in operator is refused with EE6007 naming both libraries; the built-ins "
    "stay") {
  ScratchDir files;
  fs::create_directories(files / "ops");
  fs::copy_file(ASC_REREGISTERS_RELU_PLUGIN, files / "ops" / "reregisters_relu.so");
  ScratchDir cwd;
  const auto run = run_atc({"--model=" + model("tiny.onnx").string(), "--framework=5", "--output=tiny",
                            "--soc_version=Ascend310P3", "--op_lib_path=" + (files / "ops").string()},
                           cwd);
  std::string text;
  for (const auto& line : run.out_lines) text += line + "\n";
  INFO(text);
  CHECK(run.exit_code == 16);
  REQUIRE(run.out_lines.size() >= 3);
  CHECK(run.out_lines[2].rfind("EE6007: ", 0) == 0);
  CHECK(
      fault_text_contains(text, "plugin 'reregisters_relu' (" + (files / "ops" / "reregisters_relu.so").string() + ")"));
  CHECK(fault_text_contains(text, "operator Relu (domain 'ai.onnx')"));
  CHECK(fault_text_contains(text, "already registered by plugin 'ops_builtin'"));
  CHECK(fault_text_contains(text, "ops_builtin.so)"));

  // On the plugin path rather than --op_lib_path, it is refused with a warning and the built-in
  // Relu compiles the model.
  const auto listed =
      run_process(quoted(ASC_EXECUTABLE) + " plugins --plugin-dir " + quoted(files / "ops"), cwd);
  CHECK(listed.exit_code == 0);
  const std::string loaded_section = listed.out.substr(0, listed.out.find("\nRefused"));
  CHECK_MESSAGE(fault_text_contains(loaded_section, "ops_builtin"), listed.out);
  CHECK_MESSAGE(fault_text_contains(listed.out.substr(loaded_section.size()), "EE6007"), listed.out);
  const auto converted =
      run_process("cd " + quoted(cwd.path()) + " && ASC_PLUGIN_PATH=" + quoted(files / "ops") + " " +
                      quoted(ASC_ATC_EXECUTABLE) + " --model=" + quoted(model("tiny.onnx")) +
                      " --framework=5 --output=tiny --soc_version=Ascend310P3",
                  cwd);
  CHECK_MESSAGE(converted.exit_code == 0, (converted.out + converted.err));
  CHECK(fault_text_contains(converted.err, "reregisters_relu"));
  CHECK(fs::exists(cwd / "tiny.om"));
}

}  // namespace asc::atc::testing
