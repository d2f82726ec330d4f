// `asc plugins`: what was found in the search path, what was loaded, and why the rest was refused.
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "command_line.hpp"
#include "commands.hpp"

namespace asc::cli {
namespace {

const CommandSyntax kPluginsSyntax{
    "asc plugins [--plugin-dir DIR]... [--log LEVEL]",
    "Lists the plugins found in the search path (name, version, kinds, file), then the files that\n"
    "were refused and why."};

std::string kinds_text(unsigned kinds) {
  const std::string text = plugin_kinds_to_string(kinds);
  return text.empty() ? "-" : text;
}

void print_loaded(const std::vector<host::PluginCandidate>& loaded) {
  std::size_t name_width = 4, version_width = 7, kinds_width = 5;
  for (const auto& plugin : loaded) {
    name_width = std::max(name_width, plugin.name.size());
    version_width = std::max(version_width, plugin.version.size());
    kinds_width = std::max(kinds_width, kinds_text(plugin.kinds).size());
  }
  std::cout << "Loaded plugins (" << loaded.size() << "):\n";
  auto row = [&](const std::string& name, const std::string& version, const std::string& kinds, const std::string& file) {
    std::cout << "  " << std::left << std::setw(static_cast<int>(name_width)) << name << "  "
              << std::setw(static_cast<int>(version_width)) << version << "  "
              << std::setw(static_cast<int>(kinds_width)) << kinds << "  " << file << '\n';
  };
  row("NAME", "VERSION", "KINDS", "FILE");
  for (const auto& plugin : loaded) row(plugin.name, plugin.version, kinds_text(plugin.kinds), plugin.file.string());
}

}  // namespace

int plugins_command(const std::vector<std::string>& arguments) {
  PluginOptions plugin_options;
  po::options_description options("Options");
  add_plugin_options(options, plugin_options);
  po::variables_map values;
  if (!parse_arguments(kPluginsSyntax, arguments, options, {}, {}, values)) return 0;

  const auto host = load_plugins(plugin_options);
  std::vector<host::PluginCandidate> loaded, refused;
  for (const auto& candidate : host->candidates()) (candidate.loaded ? loaded : refused).push_back(candidate);

  print_loaded(loaded);
  if (!refused.empty()) {
    std::cout << "\nRefused (" << refused.size() << "):\n";
    for (const auto& candidate : refused) std::cout << "  " << candidate.file.string() << ": " << candidate.reason << '\n';
  }
  std::cout << "\nSearch path:\n";
  for (const auto& dir : host->search_path()) {
    std::error_code error;
    std::cout << "  " << dir.string() << (std::filesystem::is_directory(dir, error) ? "" : "  (does not exist)") << '\n';
  }
  if (loaded.empty())
    std::cout << "\nNo plugin loaded. Build or install the plugins, or point asc at a plugin directory with\n"
                 "--plugin-dir DIR or ASC_PLUGIN_PATH=DIR1:DIR2.\n";
  return 0;
}

}  // namespace asc::cli
