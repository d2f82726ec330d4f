// The plugin boundary.
//
// A plugin library exports exactly one symbol, `asc_plugin_entry`, returning a plain C
// descriptor: the SDK version and C++ ABI tag it was built with, its name, version, kinds, and
// the function that registers what it provides. The host reads the descriptor, refuses the
// plugin (naming the file and both versions) unless major.minor and the ABI tag match its own,
// and only then calls register_plugin. No exception crosses the boundary: register_plugin
// catches everything and returns a message.
//
// Write a plugin with the ASC_PLUGIN macro:
//
//   #include <asc/sdk/plugin.hpp>
//   ASC_PLUGIN("my_ops", "1.0.0", asc::kOpLibraryKind, "My custom operators") {
//     registrar.add_collected_ops();  // everything this library declared with ASC_REGISTER_OP
//   }
//
// Ownership: objects a plugin registers are owned by the host's Registry, which is cleared
// before the plugin library is unloaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

#include "asc/sdk/error.hpp"
#include "asc/sdk/registry.hpp"
#include "asc/sdk/version.hpp"

extern "C" {
struct AscPluginDescriptor {
  std::uint32_t descriptor_size;  // sizeof(AscPluginDescriptor) as the plugin saw it
  std::uint32_t sdk_version_major;
  std::uint32_t sdk_version_minor;
  std::uint32_t sdk_version_patch;
  const char* abi_tag;  // ASC_SDK_ABI_TAG
  const char* name;
  const char* version;
  const char* description;
  unsigned kinds;  // asc::PluginKind bits
  // Registers the plugin's contents into `registrar` (an asc::PluginRegistrar*). Returns 0 on
  // success; otherwise writes a NUL-terminated message of at most error_size bytes into error.
  int (*register_plugin)(void* registrar, char* error, std::size_t error_size);
};
}

#define ASC_PLUGIN_ENTRY_POINT "asc_plugin_entry"

namespace asc {

// Hands a plugin's contributions to the registry, checking each against the kinds the plugin
// declared (a plugin that declares only kOpLibraryKind cannot add a backend).
class PluginRegistrar {
 public:
  PluginRegistrar(Registry& registry, std::string plugin, unsigned declared_kinds);

  const std::string& plugin_name() const noexcept { return plugin_; }
  // Read access to what is loaded so far (plugins load in search order).
  const Registry& registry() const noexcept { return registry_; }

  void add_op(OpDefinition definition);
  void add_parser(std::shared_ptr<const Parser> parser);
  void add_pass(std::shared_ptr<const Pass> pass);
  void add_backend(std::shared_ptr<const Backend> backend);
  void add_validator(std::shared_ptr<const Validator> validator);
  void add_profiler(std::shared_ptr<const Profiler> profiler);
  // Stages are not a kind: any plugin may offer pipeline stages.
  void add_stage(StageDefinition stage);

  // Adds every definition this plugin library collected with ASC_REGISTER_OP. Inline on
  // purpose: it must read the calling library's own list.
  void add_collected_ops() {
    for (const auto& definition : detail::collected_ops()) add_op(definition);
  }

 private:
  void require_kind(unsigned kind, const char* what) const;
  Registry& registry_;
  std::string plugin_;
  unsigned declared_kinds_;
};

namespace detail {
inline int guarded_register(void* registrar, char* error, std::size_t error_size,
                            void (*body)(PluginRegistrar&)) noexcept {
  auto report = [&](const char* message) {
    if (error != nullptr && error_size > 0) {
      std::strncpy(error, message, error_size - 1);
      error[error_size - 1] = '\0';
    }
    return 1;
  };
  try {
    body(*static_cast<PluginRegistrar*>(registrar));
    return 0;
  } catch (const std::exception& e) {
    return report(e.what());
  } catch (...) {
    return report("unknown exception during plugin registration");
  }
}
}  // namespace detail

}  // namespace asc

#define ASC_PLUGIN(NAME, VERSION, KINDS, DESCRIPTION)                                                  \
  static void asc_plugin_register_body(::asc::PluginRegistrar& registrar);                             \
  static int asc_plugin_register_trampoline(void* registrar, char* error, std::size_t size) noexcept { \
    return ::asc::detail::guarded_register(registrar, error, size, &asc_plugin_register_body);        \
  }                                                                                                    \
  extern "C" __attribute__((visibility("default"))) const AscPluginDescriptor* asc_plugin_entry() {    \
    static const AscPluginDescriptor descriptor{sizeof(AscPluginDescriptor),                          \
                                                ASC_SDK_VERSION_MAJOR,                                 \
                                                ASC_SDK_VERSION_MINOR,                                 \
                                                ASC_SDK_VERSION_PATCH,                                 \
                                                ASC_SDK_ABI_TAG,                                       \
                                                NAME,                                                  \
                                                VERSION,                                               \
                                                DESCRIPTION,                                           \
                                                KINDS,                                                 \
                                                &asc_plugin_register_trampoline};                      \
    return &descriptor;                                                                                \
  }                                                                                                    \
  static void asc_plugin_register_body([[maybe_unused]] ::asc::PluginRegistrar& registrar)
