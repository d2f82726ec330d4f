// Plugin discovery and loading: the descriptor checks, their messages, shadowing, require().
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "asc/host/plugin_host.hpp"
#include "asc/sdk/version.hpp"
#include "test_support.hpp"

namespace asc::host {
namespace {

namespace fs = std::filesystem;
using testing::error_message;

const fs::path kTestPlugins = ASC_TEST_PLUGIN_DIR;

fs::path plugin_file(const std::string& name) { return kTestPlugins / (name + ".so"); }

const PluginCandidate& candidate_for(const PluginHost& host, const fs::path& file) {
  for (const auto& candidate : host.candidates())
    if (candidate.file == file) return candidate;
  FAIL("no candidate for " << file);
  throw std::logic_error("unreachable");
}

bool host_text_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("load_all loads the good plugin and records why each bad one was refused") {
  PluginHost host({kTestPlugins});
  host.load_all();

  const auto& good = candidate_for(host, plugin_file("test_stages"));
  CHECK(good.loaded);
  CHECK(good.reason.empty());
  CHECK(good.name == "test_stages");
  CHECK(good.version == "1.2.3");
  CHECK(good.sdk_version == ASC_SDK_VERSION_STRING);
  CHECK(host.registry().stage("test.append") != nullptr);
  CHECK(host.registry().stage("test.append")->plugin == "test_stages");

  const auto& wrong_sdk = candidate_for(host, plugin_file("wrong_sdk"));
  CHECK_FALSE(wrong_sdk.loaded);
  CHECK(wrong_sdk.name == "wrong_sdk");
  CHECK(wrong_sdk.sdk_version == "99.0.0");
  CHECK(host_text_contains(wrong_sdk.reason, "EE6003"));
  CHECK(host_text_contains(wrong_sdk.reason,
                           "plugin " + plugin_file("wrong_sdk").string() +
                               " was built against SDK 99.0.0, this host uses SDK " ASC_SDK_VERSION_STRING
                               " (major.minor must match)"));

  const auto& wrong_abi = candidate_for(host, plugin_file("wrong_abi"));
  CHECK_FALSE(wrong_abi.loaded);
  CHECK(host_text_contains(wrong_abi.reason, "EE6004"));
  CHECK(host_text_contains(wrong_abi.reason, plugin_file("wrong_abi").string()));
  CHECK(host_text_contains(wrong_abi.reason, "'libc++-1'"));
  CHECK(host_text_contains(wrong_abi.reason, "'" ASC_SDK_ABI_TAG "'"));

  const auto& no_entry = candidate_for(host, plugin_file("no_entry"));
  CHECK_FALSE(no_entry.loaded);
  CHECK(host_text_contains(no_entry.reason, "EE6002"));
  CHECK(host_text_contains(no_entry.reason, plugin_file("no_entry").string()));
  CHECK(host_text_contains(no_entry.reason, "asc_plugin_entry"));

  const auto& throws = candidate_for(host, plugin_file("throws_on_register"));
  CHECK_FALSE(throws.loaded);
  CHECK(host_text_contains(throws.reason, "EE6005"));
  CHECK(host_text_contains(throws.reason, "deliberate registration failure"));

  const auto& kind_violation = candidate_for(host, plugin_file("kind_violation"));
  CHECK_FALSE(kind_violation.loaded);
  CHECK(host_text_contains(kind_violation.reason, "EE6005"));
  CHECK(host_text_contains(kind_violation.reason, "backend"));
  CHECK(host.registry().backend("kind_violation") == nullptr);
}

TEST_CASE("load_file throws the documented code for each kind of refusal") {
  PluginHost host({});
  CHECK(host_text_contains(
      error_message([&] { host.load_file(plugin_file("wrong_sdk")); }, ErrorCode::PluginSdkMismatch),
      "SDK 99.0.0"));
  error_message([&] { host.load_file(plugin_file("wrong_abi")); }, ErrorCode::PluginAbiMismatch);
  error_message([&] { host.load_file(plugin_file("no_entry")); }, ErrorCode::PluginNoEntryPoint);
  error_message([&] { host.load_file(plugin_file("throws_on_register")); }, ErrorCode::PluginRegistrationFailed);
  error_message([&] { host.load_file(plugin_file("kind_violation")); }, ErrorCode::PluginRegistrationFailed);
  host.load_file(plugin_file("test_stages"));
  CHECK(host.candidates().back().loaded);
}

TEST_CASE("a plugin that re-registers a built-in operator is refused whole (EE6007); the built-ins stay") {
  // The plugin's directory comes first in the search path, and its file would sort first too.
  const fs::path own_dir = kTestPlugins / "reregisters";
  const fs::path builtin = fs::path(ASC_BUILD_PLUGIN_DIR) / "ops_builtin.so";
  PluginHost host({own_dir, ASC_BUILD_PLUGIN_DIR});
  host.load_all();
  CHECK(candidate_for(host, builtin).loaded);
  const OpDefinition* relu = host.registry().ops().find("", "Relu", 14);
  REQUIRE(relu != nullptr);
  CHECK(relu->plugin == "ops_builtin");
  CHECK(host.registry().ops().find("", "Conv", 11) != nullptr);

  const auto& refused = candidate_for(host, own_dir / "reregisters_relu.so");
  CHECK_FALSE(refused.loaded);
  CHECK(contains(refused.reason, "EE6007"));
  CHECK(contains(refused.reason, "plugin 'reregisters_relu' (" + (own_dir / "reregisters_relu.so").string() + ")"));
  CHECK(contains(refused.reason, "operator Relu (domain 'ai.onnx') versions 14+"));
  CHECK(contains(refused.reason, "plugin 'ops_builtin' is " + builtin.string()));
  // Its own operator went with it.
  CHECK_FALSE(host.registry().ops().knows("com.example", "ReluTwin"));

  // Loaded by hand after the built-ins, it throws that code.
  PluginHost by_hand({});
  by_hand.load_file(builtin);
  CHECK(contains(error_message([&] { by_hand.load_file(own_dir / "reregisters_relu.so"); }, ErrorCode::PluginDuplicate),
                 "already registered by plugin 'ops_builtin'"));
}

TEST_CASE("a file the loader cannot open is EE6001 with the loader's reason") {
  testing::ScratchDir scratch;
  const auto broken = scratch / "broken.so";
  testing::write_text(broken, std::string(200, 'x'));
  PluginHost host({scratch.path()});
  const auto message = error_message([&] { host.load_file(broken); }, ErrorCode::PluginLoadFailed);
  CHECK(host_text_contains(message, broken.string()));
  CHECK(host_text_contains(message, "invalid ELF header"));
}

TEST_CASE("a truncated library is EE6001 before dlopen maps it (which died of SIGBUS)") {
  testing::ScratchDir scratch;
  std::ifstream in(plugin_file("test_stages"), std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::size_t size : {std::size_t{64}, std::size_t{1000}, whole.size() / 3, whole.size() / 2, whole.size() - 1}) {
    INFO("cut to " << size << " of " << whole.size() << " bytes");
    const auto cut = scratch / ("cut_" + std::to_string(size) + ".so");
    testing::write_text(cut, whole.substr(0, size));
    PluginHost host({scratch.path()});
    const auto message = error_message([&] { host.load_file(cut); }, ErrorCode::PluginLoadFailed);
    CHECK(host_text_contains(message, cut.string()));
    CHECK(host_text_contains(message,
                             "the file is truncated or corrupt: it is " + std::to_string(size) + " bytes"));
  }
}

TEST_CASE("a partially registered plugin contributes nothing") {
  PluginHost host({});
  error_message([&] { host.load_file(plugin_file("throws_on_register")); }, ErrorCode::PluginRegistrationFailed);
  CHECK(host.registry().stage("throws.partial") == nullptr);
}

TEST_CASE("the first plugin of a name in the search path wins") {
  const auto shadow_dir = kTestPlugins / "shadow";
  PluginHost host({shadow_dir, kTestPlugins});
  host.load_all();
  CHECK(candidate_for(host, shadow_dir / "test_stages.so").loaded);
  const auto& later = candidate_for(host, plugin_file("test_stages"));
  CHECK_FALSE(later.loaded);
  CHECK(host_text_contains(later.reason, "EE6007"));
  CHECK(host_text_contains(later.reason, "shadowed by " + (shadow_dir / "test_stages.so").string()));
}

TEST_CASE("require lists every missing plugin and why same-named files were refused") {
  PluginHost host({kTestPlugins});
  host.load_all();
  host.require({"test_stages"});
  const auto message = error_message([&] { host.require({"test_stages", "no_such_plugin", "wrong_sdk"}); },
                                     ErrorCode::PluginNotFound);
  CHECK(host_text_contains(message, "no_such_plugin, wrong_sdk"));
  CHECK(host_text_contains(message, plugin_file("wrong_sdk").string() + " was refused"));
  CHECK(host_text_contains(message, kTestPlugins.string()));
  CHECK(host_text_contains(message, "--plugin-dir"));
}

TEST_CASE("plugin_search_path: command line, $ASC_PLUGIN_PATH, beside the executable, install prefix") {
  const char* saved = std::getenv("ASC_PLUGIN_PATH");
  const std::string saved_value = saved != nullptr ? saved : "";
  ::setenv("ASC_PLUGIN_PATH", "/env/one::/env/two", 1);
  const auto path = plugin_search_path({"/cli/a", "/cli/b", "/cli/a/"});
  if (saved != nullptr)
    ::setenv("ASC_PLUGIN_PATH", saved_value.c_str(), 1);
  else
    ::unsetenv("ASC_PLUGIN_PATH");

  REQUIRE(path.size() == 6);
  CHECK(path[0] == "/cli/a");
  CHECK(path[1] == "/cli/b");
  CHECK(path[2] == "/env/one");
  CHECK(path[3] == "/env/two");
  // test_host lives in build/bin like asc, so "beside the executable" is the build's plugin dir.
  CHECK(path[4] == fs::weakly_canonical(ASC_BUILD_PLUGIN_DIR));
  CHECK(path[5].string().ends_with("asc/plugins"));
}

}  // namespace
}  // namespace asc::host
