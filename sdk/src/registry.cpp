#include "asc/sdk/registry.hpp"

#include <algorithm>
#include <cctype>

#include "asc/sdk/error.hpp"

namespace asc {
namespace {

std::string ascii_lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

template <class T> const T* find_named(const std::vector<Registered<T>>& items, const std::string& name) {
  for (const auto& entry : items)
    if (entry.item->name() == name) return entry.item.get();
  return nullptr;
}

template <class T>
void add_named(std::vector<Registered<T>>& items, std::shared_ptr<const T> item, const std::string& plugin,
               const char* kind) {
  if (item == nullptr)
    throw Error(ErrorCode::PluginRegistrationFailed, "plugin '" + plugin + "' registers a null " + kind);
  const std::string name = item->name();
  for (const auto& entry : items)
    if (entry.item->name() == name)
      throw Error(ErrorCode::PluginDuplicate, std::string(kind) + " '" + name + "' from plugin '" + plugin +
                                                  "' is already registered by plugin '" + entry.plugin + "'");
  items.push_back({std::move(item), plugin});
}

}  // namespace

std::string plugin_kinds_to_string(unsigned kinds) {
  static constexpr std::pair<unsigned, const char*> kNames[] = {
      {kParserKind, "parser"},       {kPassKind, "pass"},           {kOpLibraryKind, "ops"},
      {kBackendKind, "backend"},     {kValidatorKind, "validator"}, {kProfilerKind, "profiler"},
  };
  std::string text;
  for (const auto& [bit, name] : kNames) {
    if ((kinds & bit) == 0) continue;
    if (!text.empty()) text += ',';
    text += name;
  }
  return text;
}

const Parser* Registry::parser(const std::string& name) const { return find_named(parsers_, name); }

const Parser* Registry::parser_for(const std::filesystem::path& model) const {
  const std::string extension = ascii_lower(model.extension().string());
  if (extension.empty()) return nullptr;
  for (const auto& entry : parsers_)
    for (const auto& candidate : entry.item->extensions())
      if (ascii_lower(candidate) == extension) return entry.item.get();
  return nullptr;
}

const Pass* Registry::pass(const std::string& name) const { return find_named(passes_, name); }
const Backend* Registry::backend(const std::string& name) const { return find_named(backends_, name); }
const Validator* Registry::validator(const std::string& name) const { return find_named(validators_, name); }
const Profiler* Registry::profiler(const std::string& name) const { return find_named(profilers_, name); }

const StageDefinition* Registry::stage(const std::string& name) const {
  for (const auto& definition : stages_)
    if (definition.name == name) return &definition;
  return nullptr;
}

void Registry::add_parser(std::shared_ptr<const Parser> parser, const std::string& plugin) {
  add_named(parsers_, std::move(parser), plugin, "parser");
}
void Registry::add_pass(std::shared_ptr<const Pass> pass, const std::string& plugin) {
  add_named(passes_, std::move(pass), plugin, "pass");
}
void Registry::add_backend(std::shared_ptr<const Backend> backend, const std::string& plugin) {
  add_named(backends_, std::move(backend), plugin, "backend");
}
void Registry::add_validator(std::shared_ptr<const Validator> validator, const std::string& plugin) {
  add_named(validators_, std::move(validator), plugin, "validator");
}
void Registry::add_profiler(std::shared_ptr<const Profiler> profiler, const std::string& plugin) {
  add_named(profilers_, std::move(profiler), plugin, "profiler");
}

void Registry::add_stage(StageDefinition stage, const std::string& plugin) {
  if (!stage.run)
    throw Error(ErrorCode::PluginRegistrationFailed,
                "plugin '" + plugin + "' registers stage '" + stage.name + "' without a function");
  for (const auto& existing : stages_)
    if (existing.name == stage.name)
      throw Error(ErrorCode::PluginDuplicate, "stage '" + stage.name + "' from plugin '" + plugin +
                                                  "' is already registered by plugin '" + existing.plugin + "'");
  stage.plugin = plugin;
  stages_.push_back(std::move(stage));
}

void Registry::clear() {
  // Stages and ops hold std::function objects whose code lives in plugin libraries too.
  stages_.clear();
  profilers_.clear();
  validators_.clear();
  backends_.clear();
  passes_.clear();
  parsers_.clear();
  ops_ = OpRegistry();
}

void Registry::remove_plugin(const std::string& plugin) {
  const auto owned_by = [&](const auto& entry) { return entry.plugin == plugin; };
  std::erase_if(stages_, owned_by);
  std::erase_if(profilers_, owned_by);
  std::erase_if(validators_, owned_by);
  std::erase_if(backends_, owned_by);
  std::erase_if(passes_, owned_by);
  std::erase_if(parsers_, owned_by);
  ops_.remove_plugin(plugin);
}

}  // namespace asc
