// A descriptor written by hand that claims the libc++ ABI: the host must refuse it.
#include "asc/sdk/plugin.hpp"

namespace {
int register_nothing(void*, char*, std::size_t) noexcept { return 0; }
}  // namespace

extern "C" __attribute__((visibility("default"))) const AscPluginDescriptor* asc_plugin_entry() {
  static const AscPluginDescriptor descriptor{sizeof(AscPluginDescriptor), ASC_SDK_VERSION_MAJOR,
                                              ASC_SDK_VERSION_MINOR,        ASC_SDK_VERSION_PATCH,
                                              "libc++-1",                   "wrong_abi",
                                              "1.0.0",                      "Claims another C++ ABI",
                                              asc::kPassKind,               &register_nothing};
  return &descriptor;
}
