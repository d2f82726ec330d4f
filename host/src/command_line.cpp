#include "command_line.hpp"

#include <iostream>

#include "asc/sdk/error.hpp"
#include "asc/sdk/log.hpp"

namespace asc::cli {

void add_plugin_options(po::options_description& description, PluginOptions& options) {
  description.add_options()
      ("plugin-dir", po::value(&options.plugin_dirs)->composing()->value_name("DIR"),
       "search DIR for plugins first (repeatable); then $ASC_PLUGIN_PATH, <asc's dir>/../lib/asc/plugins, "
       "the install prefix's lib/asc/plugins")
      ("log", po::value(&options.log_level)->value_name("LEVEL"),
       "debug, info, warning (default, or $ASC_LOG_LEVEL), error or null");
}

bool parse_arguments(const CommandSyntax& syntax, const std::vector<std::string>& arguments,
                     po::options_description options, const po::options_description& hidden,
                     const po::positional_options_description& positional, po::variables_map& values) {
  options.add_options()("help,h", "show this help");
  po::options_description all;
  all.add(options).add(hidden);
  try {
    po::store(po::command_line_parser(arguments).options(all).positional(positional).run(), values);
    if (values.count("help") != 0) {
      std::cout << "Usage: " << syntax.usage << "\n\n" << syntax.summary << "\n\n" << options;
      return false;
    }
    po::notify(values);
  } catch (const po::error& e) {
    throw Error(ErrorCode::UsageError, e.what() + std::string(" (usage: ") + syntax.usage + "; see --help)");
  }
  return true;
}

std::unique_ptr<host::PluginHost> load_plugins(const PluginOptions& options) {
  if (!options.log_level.empty()) {
    const auto level = parse_log_level(options.log_level);
    if (!level)
      throw Error(ErrorCode::UsageError,
                  "--log '" + options.log_level + "' is not a level; use debug, info, warning, error or null");
    set_log_level(*level);
  }
  const std::vector<std::filesystem::path> dirs(options.plugin_dirs.begin(), options.plugin_dirs.end());
  // A directory the user named and mistyped would otherwise be skipped without a word.
  for (const auto& dir : dirs) {
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error))
      throw Error(ErrorCode::FileNotFound, "--plugin-dir '" + dir.string() + "' is not a directory");
  }
  auto host = std::make_unique<host::PluginHost>(host::plugin_search_path(dirs));
  host->load_all();
  return host;
}

}  // namespace asc::cli
