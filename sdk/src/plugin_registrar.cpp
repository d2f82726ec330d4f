#include "asc/sdk/plugin.hpp"

namespace asc {

PluginRegistrar::PluginRegistrar(Registry& registry, std::string plugin, unsigned declared_kinds)
    : registry_(registry), plugin_(std::move(plugin)), declared_kinds_(declared_kinds) {}

void PluginRegistrar::require_kind(unsigned kind, const char* what) const {
  if ((declared_kinds_ & kind) == 0)
    throw Error(ErrorCode::PluginRegistrationFailed, "plugin '" + plugin_ + "' registers " + what +
                                                         " but does not declare the " + plugin_kinds_to_string(kind) +
                                                         " kind (it declares: " +
                                                         (declared_kinds_ == 0 ? std::string("none")
                                                                               : plugin_kinds_to_string(declared_kinds_)) +
                                                         ")");
}

void PluginRegistrar::add_op(OpDefinition definition) {
  require_kind(kOpLibraryKind, ("an operator '" + definition.op_type + "'").c_str());
  definition.plugin = plugin_;
  registry_.ops().add(std::move(definition));
}

void PluginRegistrar::add_parser(std::shared_ptr<const Parser> parser) {
  require_kind(kParserKind, "a parser");
  registry_.add_parser(std::move(parser), plugin_);
}

void PluginRegistrar::add_pass(std::shared_ptr<const Pass> pass) {
  require_kind(kPassKind, "a pass");
  registry_.add_pass(std::move(pass), plugin_);
}

void PluginRegistrar::add_backend(std::shared_ptr<const Backend> backend) {
  require_kind(kBackendKind, "a backend");
  registry_.add_backend(std::move(backend), plugin_);
}

void PluginRegistrar::add_validator(std::shared_ptr<const Validator> validator) {
  require_kind(kValidatorKind, "a validator");
  registry_.add_validator(std::move(validator), plugin_);
}

void PluginRegistrar::add_profiler(std::shared_ptr<const Profiler> profiler) {
  require_kind(kProfilerKind, "a profiler");
  registry_.add_profiler(std::move(profiler), plugin_);
}

void PluginRegistrar::add_stage(StageDefinition stage) { registry_.add_stage(std::move(stage), plugin_); }

}  // namespace asc
