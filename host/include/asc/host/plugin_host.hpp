// Finds plugin libraries, checks their descriptors, and owns both the libraries and the
// Registry they fill. See plugin.hpp in the SDK for the plugin side of the boundary.
#pragma once

#include <filesystem>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "asc/sdk/registry.hpp"

namespace asc::host {

// One file looked at while loading plugins.
struct PluginCandidate {
  std::filesystem::path file;
  bool loaded = false;
  std::string name, version, description, sdk_version;  // from the descriptor when readable
  unsigned kinds = 0;
  std::string reason;  // why it was rejected (empty when loaded)
};

// The documented search order: command-line dirs, then $ASC_PLUGIN_PATH (':'-separated), then
// <dir of the asc executable>/../lib/asc/plugins, then <install prefix>/lib/asc/plugins.
// A directory listed twice is kept at its first position only.
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::filesystem::path>& command_line_dirs);

// The toolchain's operator libraries: ops_builtin (ai.onnx) and fusion (the fused operators of
// the asc domain, and the built-in passes). They load before every other plugin, whatever the
// search order, so that an operator plugin may add operators but never take a built-in one: a
// plugin that registers a built-in (domain, op type, version) is the one refused (EE6007), whole.
inline constexpr const char* kBuiltinOperatorPlugins[] = {"ops_builtin", "fusion"};

class PluginHost {
 public:
  explicit PluginHost(std::vector<std::filesystem::path> search_path);
  ~PluginHost();  // clears the registry before unloading libraries
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;

  // Every *.so in the search path (directories in order, files by name, kBuiltinOperatorPlugins
  // first); the first occurrence of a plugin name wins. Refused files are recorded in
  // candidates(), not thrown.
  void load_all();
  // Throws asc::Error: EE6001 (cannot open), EE6002 (no entry point), EE6003 (SDK version),
  // EE6004 (ABI), EE6005 (registration failed), EE6007 (name already loaded from another file, or
  // an operator or other item another loaded plugin registered: the message names both plugins,
  // their files and the item). A refused plugin contributes nothing.
  void load_file(const std::filesystem::path& file);
  // Loads each named plugin (<name>.so) from the first search-path directory that has it, then
  // require()s them all: for tools that need only a few plugins, not everything installed.
  void load_named(const std::vector<std::string>& plugin_names);
  // EE6006 listing the missing plugins, why same-named files were refused, and where to look.
  void require(const std::vector<std::string>& plugin_names) const;

  Registry& registry();
  const Registry& registry() const;
  const std::vector<PluginCandidate>& candidates() const;
  const std::vector<std::filesystem::path>& search_path() const;

 private:
  struct Libraries;
  PluginCandidate& record(const std::filesystem::path& file);
  const PluginCandidate* loaded_plugin(const std::string& name) const;
  // <name>.so in the first search-path directory that has it.
  std::optional<std::filesystem::path> find_named(const std::string& name) const;
  void load_and_log(const std::filesystem::path& file);
  std::string files_of_named_plugins(const std::string& text) const;

  std::vector<std::filesystem::path> search_path_;
  std::vector<PluginCandidate> candidates_;
  // Declared before the registry so that, even without the explicit clear in the destructor,
  // the registry (whose objects' code lives in the libraries) goes first.
  std::unique_ptr<Libraries> libraries_;
  Registry registry_;
};

}  // namespace asc::host
