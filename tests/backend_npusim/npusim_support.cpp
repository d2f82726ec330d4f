#include "npusim_support.hpp"

#include <cmath>

#include <asc/host/plugin_host.hpp>
#include <asc/sdk/parser.hpp>
#include <cstdlib>
#include <map>

#include "npusim_backend.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

namespace asc::test {

npusim::SocConfig soc(const std::string& name) { return npusim::load_soc(name, ASC_NPUSIM_SOURCE_SOC_DIR); }

std::unique_ptr<Executable> compile_npusim(const Graph& graph, const std::string& soc_version,
                                           const std::string& precision_mode) {
  return npusim::NpusimBackend().compile(
      graph, plugin_registry().ops(),
      {{"soc_version", soc_version}, {"precision_mode", precision_mode}, {"soc_dir", ASC_NPUSIM_SOURCE_SOC_DIR}});
}

const Graph& exported_model(const std::string& name) {
  static std::map<std::string, Graph> graphs;
  if (const auto found = graphs.find(name); found != graphs.end()) return found->second;
  const TempDir dir;
  const std::filesystem::path model = dir / (name + ".onnx");
  const std::string command = std::string(ASC_TEST_PYTHON) + " " + ASC_SOURCE_DIR + "/tools/export_model.py " + name +
                              " '" + model.string() + "' --static > '" + (dir / "export.log").string() + "' 2>&1";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("tools/export_model.py " + name + " failed: " + command);
  host::PluginHost parsers(std::vector<std::filesystem::path>{ASC_BUILD_PLUGIN_DIR});
  parsers.load_file(std::filesystem::path(ASC_BUILD_PLUGIN_DIR) / "parser_onnx.so");
  return graphs.emplace(name, parsers.registry().parser("onnx")->parse(model, ParseOptions{})).first->second;
}

const Graph& resnet50() { return exported_model("resnet50"); }

double cosine_similarity(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, na = 0, nb = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    dot += static_cast<double>(a[i]) * b[i];
    na += static_cast<double>(a[i]) * a[i];
    nb += static_cast<double>(b[i]) * b[i];
  }
  return dot / std::sqrt(na * nb);
}

}  // namespace asc::test
