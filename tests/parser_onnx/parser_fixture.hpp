// Shared by the parser_onnx tests: the plugin loaded into a local Registry (dlopen +
// asc_plugin_entry, independent of the host), and the models make_models.py generates.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <string>

#include <asc/sdk/error.hpp>
#include <asc/sdk/graph.hpp>
#include <asc/sdk/parser.hpp>
#include <asc/sdk/registry.hpp>

namespace asc::test {

// Loaded once per process; the library stays loaded until exit.
const Registry& plugin_registry();
const Parser& onnx_parser();

// A model written by make_models.py (generated once per process into a temporary directory
// removed at exit), e.g. model_path("conv.onnx"), model_path("ext/ok/model.onnx").
std::filesystem::path model_path(const std::string& relative);
// A fresh file path in the same temporary directory, for tests that write their own files.
std::filesystem::path scratch_path(const std::string& name);

Graph parse(const std::filesystem::path& model, const ParseOptions& options = {});
// The asc::Error parsing throws; fails the test when it throws nothing.
Error parse_error(const std::filesystem::path& model, const ParseOptions& options = {});
// Checks the code and that the message names the file and contains every `fragment`.
void check_error(const Error& error, ErrorCode code, const std::filesystem::path& model,
                 std::initializer_list<std::string> fragments = {});

const Node& node_named(const Graph& graph, const std::string& name);
std::vector<std::string> node_names(const Graph& graph);
// The value's type as asc::to_string spells it ("float32[N,4,2,2]"), or "no value info".
std::string type_of(const Graph& graph, const std::string& value);

}  // namespace asc::test
