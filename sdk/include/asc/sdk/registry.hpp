// Everything the loaded plugins provide, by kind. Owned by the host; plugins add to it through a
// PluginRegistrar while they register, and look things up in it (an operator library's kernels,
// another plugin's backend) while they run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "asc/sdk/backend.hpp"
#include "asc/sdk/op_registry.hpp"
#include "asc/sdk/parser.hpp"
#include "asc/sdk/pass.hpp"
#include "asc/sdk/pipeline.hpp"
#include "asc/sdk/profiler.hpp"
#include "asc/sdk/validator.hpp"

namespace asc {

// Plugin kinds, as a bit set in the plugin descriptor.
enum PluginKind : unsigned {
  kParserKind = 1u << 0,
  kPassKind = 1u << 1,
  kOpLibraryKind = 1u << 2,
  kBackendKind = 1u << 3,
  kValidatorKind = 1u << 4,
  kProfilerKind = 1u << 5,
};
// "parser,pass" for a bit set.
std::string plugin_kinds_to_string(unsigned kinds);

template <class T> struct Registered {
  std::shared_ptr<const T> item;
  std::string plugin;
};

class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  OpRegistry& ops() noexcept { return ops_; }
  const OpRegistry& ops() const noexcept { return ops_; }

  // Lookups return nullptr when nothing matches.
  const Parser* parser(const std::string& name) const;
  const Parser* parser_for(const std::filesystem::path& model) const;  // by extension
  const Pass* pass(const std::string& name) const;
  const Backend* backend(const std::string& name) const;
  const Validator* validator(const std::string& name) const;
  const Profiler* profiler(const std::string& name) const;
  const StageDefinition* stage(const std::string& name) const;

  const std::vector<Registered<Parser>>& parsers() const noexcept { return parsers_; }
  const std::vector<Registered<Pass>>& passes() const noexcept { return passes_; }
  const std::vector<Registered<Backend>>& backends() const noexcept { return backends_; }
  const std::vector<Registered<Validator>>& validators() const noexcept { return validators_; }
  const std::vector<Registered<Profiler>>& profilers() const noexcept { return profilers_; }
  const std::vector<StageDefinition>& stages() const noexcept { return stages_; }

  // Adding: names must be unique per kind (EE6007 otherwise). `plugin` names the owner.
  void add_parser(std::shared_ptr<const Parser> parser, const std::string& plugin);
  void add_pass(std::shared_ptr<const Pass> pass, const std::string& plugin);
  void add_backend(std::shared_ptr<const Backend> backend, const std::string& plugin);
  void add_validator(std::shared_ptr<const Validator> validator, const std::string& plugin);
  void add_profiler(std::shared_ptr<const Profiler> profiler, const std::string& plugin);
  void add_stage(StageDefinition stage, const std::string& plugin);

  // Drops everything (the host calls this before unloading plugin libraries, since the
  // objects' code lives in them).
  void clear();
  // Drops everything `plugin` registered, of every kind. The host calls it when a plugin's
  // registration fails half-way, so that a refused plugin contributes nothing and its library
  // can be unloaded.
  void remove_plugin(const std::string& plugin);

 private:
  OpRegistry ops_;
  std::vector<Registered<Parser>> parsers_;
  std::vector<Registered<Pass>> passes_;
  std::vector<Registered<Backend>> backends_;
  std::vector<Registered<Validator>> validators_;
  std::vector<Registered<Profiler>> profilers_;
  std::vector<StageDefinition> stages_;
};

}  // namespace asc
