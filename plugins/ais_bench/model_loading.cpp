#include "model_loading.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>

namespace asc::bench {
namespace {

const Backend& backend_named(const Registry& registry, const std::string& name) {
  if (const Backend* backend = registry.backend(name)) return *backend;
  std::string loaded;
  for (const auto& entry : registry.backends()) loaded += (loaded.empty() ? "" : ", ") + entry.item->name();
  throw Error(ErrorCode::PluginNotFound, "no backend named '" + name + "' is loaded (loaded: " +
                                             (loaded.empty() ? "none" : loaded) +
                                             "); put its plugin on the plugin search path (asc plugins lists them)");
}

const Backend& backend_reading(const Registry& registry, const std::filesystem::path& model) {
  for (const auto& entry : registry.backends())
    if (entry.item->reads_model_file(model)) return *entry.item;
  throw Error(ErrorCode::FileFormatInvalid,
              "model file " + model.string() + ": no loaded backend reads this format (is it an .om written by atc?)");
}

}  // namespace

LoadedModel load_model(const Registry& registry, const std::string& backend, const std::filesystem::path& model,
                       BackendOptions options) {
  const Backend& chosen = backend_named(registry, backend);
  std::error_code error;  // a path the system cannot look up (a name too long) is "not found" too
  if (!std::filesystem::exists(model, error))
    throw Error(ErrorCode::FileNotFound,
                "model file " + model.string() +
                    (error && error != std::errc::no_such_file_or_directory ? " cannot be looked up (" + error.message() + ")"
                                                                           : " does not exist"));
  const Backend& writer = backend_reading(registry, model);
  LoadedModel loaded{nullptr, writer.describe_model_file(model)};
  if (&writer == &chosen) {
    loaded.executable = chosen.load(model, registry.ops(), options);
    return loaded;
  }
  if (options.count("soc_version") == 0 && !loaded.info.soc_version.empty())
    options["soc_version"] = loaded.info.soc_version;
  log_info("ais_bench: " + model.string() + " was written by backend '" + writer.name() + "'; backend '" +
           chosen.name() + "' compiles its graph");
  loaded.executable = chosen.compile(writer.read_model_graph(model, registry.ops()), registry.ops(), options);
  return loaded;
}

}  // namespace asc::bench
