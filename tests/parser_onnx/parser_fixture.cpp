#include "parser_fixture.hpp"

#include <dlfcn.h>
#include <stdlib.h>

#include <cstdlib>
#include <stdexcept>

#include <asc/sdk/plugin.hpp>
#include <doctest/doctest.h>

namespace asc::test {
namespace {

namespace fs = std::filesystem;

struct LoadedPlugin {
  Registry registry;

  LoadedPlugin() {
    void* library = dlopen(ASC_PARSER_ONNX_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) throw std::runtime_error(std::string("dlopen failed: ") + dlerror());
    using Entry = const AscPluginDescriptor* (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(library, ASC_PLUGIN_ENTRY_POINT));
    if (entry == nullptr) throw std::runtime_error("parser_onnx has no " ASC_PLUGIN_ENTRY_POINT);
    const AscPluginDescriptor* descriptor = entry();
    PluginRegistrar registrar(registry, descriptor->name, descriptor->kinds);
    char error[1024] = {};
    if (descriptor->register_plugin(&registrar, error, sizeof error) != 0)
      throw std::runtime_error(std::string("parser_onnx registration failed: ") + error);
  }
};

struct GeneratedModels {
  fs::path directory;

  GeneratedModels() {
    std::string pattern = (fs::temp_directory_path() / "asc_parser_onnx_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    directory = pattern;
    const std::string command =
        std::string("'") + ASC_TEST_PYTHON + "' '" + ASC_MAKE_MODELS_SCRIPT + "' '" + directory.string() + "'";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("generating test models failed: " + command);
  }
  ~GeneratedModels() {
    std::error_code ignored;
    fs::remove_all(directory, ignored);
  }
};

const GeneratedModels& generated_models() {
  static const GeneratedModels models;
  return models;
}

}  // namespace

const Registry& plugin_registry() {
  static const LoadedPlugin plugin;
  return plugin.registry;
}

const Parser& onnx_parser() {
  const Parser* parser = plugin_registry().parser("onnx");
  if (parser == nullptr) throw std::runtime_error("parser_onnx registered no parser named 'onnx'");
  return *parser;
}

fs::path model_path(const std::string& relative) { return generated_models().directory / relative; }

fs::path scratch_path(const std::string& name) { return generated_models().directory / "scratch" / name; }

Graph parse(const fs::path& model, const ParseOptions& options) { return onnx_parser().parse(model, options); }

Error parse_error(const fs::path& model, const ParseOptions& options) {
  try {
    onnx_parser().parse(model, options);
  } catch (const Error& error) {
    return error;
  }
  FAIL("parsing " << model << " did not throw");
  return Error(ErrorCode::Internal, "unreachable");
}

void check_error(const Error& error, ErrorCode code, const fs::path& model, std::initializer_list<std::string> fragments) {
  INFO("message: " << error.what());
  CHECK(error_code_id(error.code()) == error_code_id(code));
  CHECK(error.message().find(model.string()) != std::string::npos);
  for (const auto& fragment : fragments) CHECK_MESSAGE(error.message().find(fragment) != std::string::npos, fragment);
}

const Node& node_named(const Graph& graph, const std::string& name) {
  const Node* node = graph.find_node(name);
  if (node == nullptr) throw std::runtime_error("graph has no node '" + name + "'");
  return *node;
}

std::vector<std::string> node_names(const Graph& graph) {
  std::vector<std::string> names;
  for (const Node* node : graph.nodes()) names.push_back(node->name);
  return names;
}

std::string type_of(const Graph& graph, const std::string& value) {
  const ValueInfo* info = graph.value_info(value);
  return info == nullptr ? "no value info" : to_string(*info);
}

}  // namespace asc::test
