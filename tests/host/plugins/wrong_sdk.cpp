// A descriptor written by hand (not with ASC_PLUGIN) that claims SDK 99.0.0: the host must refuse it.
#include "asc/sdk/plugin.hpp"

namespace {
int register_nothing(void*, char*, std::size_t) noexcept { return 0; }
}  // namespace

extern "C" __attribute__((visibility("default"))) const AscPluginDescriptor* asc_plugin_entry() {
  static const AscPluginDescriptor descriptor{sizeof(AscPluginDescriptor), 99, 0, 0, ASC_SDK_ABI_TAG, "wrong_sdk",
                                              "1.0.0", "Claims an SDK this host does not have", asc::kPassKind,
                                              &register_nothing};
  return &descriptor;
}
