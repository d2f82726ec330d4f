// Command-line pieces the subcommands share: parsing with Boost.Program_options (every parse
// error becomes EE5008), --help, and the plugin options (--plugin-dir, --log).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "asc/host/plugin_host.hpp"

namespace asc::cli {

namespace po = boost::program_options;

struct PluginOptions {
  std::vector<std::string> plugin_dirs;
  std::string log_level;
};

// Adds --plugin-dir and --log, stored into `options`.
void add_plugin_options(po::options_description& description, PluginOptions& options);

struct CommandSyntax {
  std::string usage;    // "asc run PIPELINE.yaml [options]"
  std::string summary;  // one paragraph under the usage line
};

// Parses `arguments` for a subcommand (which gets --help/-h added). Returns false when --help
// was given: the help has then been printed and the command should exit with 0.
bool parse_arguments(const CommandSyntax& syntax, const std::vector<std::string>& arguments,
                     po::options_description options, const po::options_description& hidden,
                     const po::positional_options_description& positional, po::variables_map& values);

// Sets the log level from --log (EE5008 for an unknown level) and loads every plugin in the
// search path.
std::unique_ptr<host::PluginHost> load_plugins(const PluginOptions& options);

}  // namespace asc::cli
