#include "asc/host/plugin_host.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#include <boost/dll/shared_library.hpp>

#include "asc/host/close_names.hpp"
#include "elf_sanity.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/log.hpp"
#include "asc/sdk/plugin.hpp"
#include "asc/sdk/version.hpp"

namespace asc::host {
namespace fs = std::filesystem;

struct PluginHost::Libraries {
  std::vector<boost::dll::shared_library> open;
};

namespace {

constexpr std::size_t kVersionFieldsEnd = offsetof(AscPluginDescriptor, sdk_version_patch) + sizeof(std::uint32_t);

std::string text_or_empty(const char* text) { return text != nullptr ? text : ""; }

// Boost.DLL clears dlerror() when dlopen fails, so the loader's reason ("undefined symbol: ...",
// "invalid ELF header") is fetched by asking the loader once more.
std::string loader_message(const fs::path& file, const std::string& fallback) {
  dlerror();
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle != nullptr) {
    dlclose(handle);
    return fallback;
  }
  const char* message = dlerror();
  return message != nullptr ? message : fallback;
}

[[noreturn]] void refuse(PluginCandidate& candidate, ErrorCode code, const std::string& message) {
  Error error(code, message);
  candidate.reason = error.what();
  throw error;
}

boost::dll::shared_library open_library(PluginCandidate& candidate) {
  const fs::path& file = candidate.file;
  if (const auto truncation = elf_truncation(file))
    refuse(candidate, ErrorCode::PluginLoadFailed,
           "cannot load plugin " + file.string() + ": the file is truncated or corrupt: " + *truncation);
  try {
    return boost::dll::shared_library(boost::dll::fs::path(file.string()),
                                      boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    refuse(candidate, ErrorCode::PluginLoadFailed,
           "cannot load plugin " + file.string() + ": " + loader_message(file, e.what()));
  }
}

// An accepted plugin stays mapped until the process exits, after its PluginHost is gone: the
// libraries it pulls in (oneDNN's libgomp among them) keep allocations and threads from their
// initialisers that unloading would orphan (LeakSanitizer reported them from "<unknown module>"),
// and what a plugin made (kernels, messages, thread-local state) may outlive the host.
// RTLD_NOLOAD | RTLD_NODELETE on the already loaded object is glibc's way to say so.
void keep_loaded_until_exit(const fs::path& file) {
  if (void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)) dlclose(handle);
}

const AscPluginDescriptor& read_descriptor(PluginCandidate& candidate, const boost::dll::shared_library& library) {
  const std::string file = candidate.file.string();
  if (!library.has(ASC_PLUGIN_ENTRY_POINT))
    refuse(candidate, ErrorCode::PluginNoEntryPoint,
           "plugin " + file + " does not export '" ASC_PLUGIN_ENTRY_POINT
           "' (declare the plugin with the ASC_PLUGIN macro of asc/sdk/plugin.hpp)");
  const auto entry = library.get<const AscPluginDescriptor*()>(ASC_PLUGIN_ENTRY_POINT);
  const AscPluginDescriptor* descriptor = entry();
  if (descriptor == nullptr)
    refuse(candidate, ErrorCode::PluginNoEntryPoint, "plugin " + file + ": '" ASC_PLUGIN_ENTRY_POINT "' returned no descriptor");
  return *descriptor;
}

// Records what the descriptor says about the plugin, then refuses it unless this host can use it.
void check_descriptor(PluginCandidate& candidate, const AscPluginDescriptor& descriptor) {
  const std::string file = candidate.file.string();
  if (descriptor.descriptor_size < kVersionFieldsEnd)
    refuse(candidate, ErrorCode::PluginAbiMismatch,
           "plugin " + file + " has a descriptor of " + std::to_string(descriptor.descriptor_size) +
               " bytes, too small to hold an SDK version");
  candidate.sdk_version = std::to_string(descriptor.sdk_version_major) + "." +
                          std::to_string(descriptor.sdk_version_minor) + "." +
                          std::to_string(descriptor.sdk_version_patch);
  // Past the version fields the layout is only known when the size matches this SDK's.
  const bool layout_matches = descriptor.descriptor_size == sizeof(AscPluginDescriptor);
  if (layout_matches) {
    candidate.name = text_or_empty(descriptor.name);
    candidate.version = text_or_empty(descriptor.version);
    candidate.description = text_or_empty(descriptor.description);
    candidate.kinds = descriptor.kinds;
  }

  if (descriptor.sdk_version_major != ASC_SDK_VERSION_MAJOR || descriptor.sdk_version_minor != ASC_SDK_VERSION_MINOR)
    refuse(candidate, ErrorCode::PluginSdkMismatch,
           "plugin " + file + " was built against SDK " + candidate.sdk_version + ", this host uses SDK " +
               ASC_SDK_VERSION_STRING + " (major.minor must match)");
  if (!layout_matches)
    refuse(candidate, ErrorCode::PluginAbiMismatch,
           "plugin " + file + " has a descriptor of " + std::to_string(descriptor.descriptor_size) +
               " bytes, this host expects " + std::to_string(sizeof(AscPluginDescriptor)));
  const std::string abi_tag = text_or_empty(descriptor.abi_tag);
  if (abi_tag != ASC_SDK_ABI_TAG)
    refuse(candidate, ErrorCode::PluginAbiMismatch,
           "plugin " + file + " was built with C++ ABI '" + abi_tag + "', this host uses '" ASC_SDK_ABI_TAG
           "' (the C++ standard library and its ABI must match)");
  if (candidate.name.empty())
    refuse(candidate, ErrorCode::PluginRegistrationFailed, "plugin " + file + " declares no name");
  if (descriptor.register_plugin == nullptr)
    refuse(candidate, ErrorCode::PluginNoEntryPoint, "plugin " + file + " declares no registration function");
}

// A registration that failed because another plugin holds the item (an operator version range,
// a pass or stage name) keeps EE6007; any other failure is EE6005 with the plugin's message.
std::pair<ErrorCode, std::string> registration_failure(const std::string& message) {
  const std::string duplicate = error_code_id(ErrorCode::PluginDuplicate) + " ";
  const auto detail = message.find(": ");
  if (message.rfind(duplicate, 0) == 0 && detail != std::string::npos)
    return {ErrorCode::PluginDuplicate, message.substr(detail + 2)};
  return {ErrorCode::PluginRegistrationFailed, message};
}

}  // namespace

// " (plugin 'ops_builtin' is /usr/lib/asc/plugins/ops_builtin.so)" for each loaded plugin `text` names.
std::string PluginHost::files_of_named_plugins(const std::string& text) const {
  std::string files;
  for (const PluginCandidate& candidate : candidates_)
    if (candidate.loaded && text.find("plugin '" + candidate.name + "'") != std::string::npos)
      files += " (plugin '" + candidate.name + "' is " + candidate.file.string() + ")";
  return files;
}

PluginHost::PluginHost(std::vector<fs::path> search_path)
    : search_path_(std::move(search_path)), libraries_(std::make_unique<Libraries>()) {}

PluginHost::~PluginHost() {
  registry_.clear();
  libraries_.reset();
}

Registry& PluginHost::registry() { return registry_; }
const Registry& PluginHost::registry() const { return registry_; }
const std::vector<PluginCandidate>& PluginHost::candidates() const { return candidates_; }
const std::vector<fs::path>& PluginHost::search_path() const { return search_path_; }

PluginCandidate& PluginHost::record(const fs::path& file) {
  PluginCandidate& candidate = candidates_.emplace_back();
  candidate.file = file;
  return candidate;
}

const PluginCandidate* PluginHost::loaded_plugin(const std::string& name) const {
  for (const auto& candidate : candidates_)
    if (candidate.loaded && candidate.name == name) return &candidate;
  return nullptr;
}

std::optional<fs::path> PluginHost::find_named(const std::string& name) const {
  for (const fs::path& dir : search_path_) {
    std::error_code error;
    if (fs::exists(dir / (name + ".so"), error)) return dir / (name + ".so");
  }
  return std::nullopt;
}

void PluginHost::load_and_log(const fs::path& file) {
  try {
    load_file(file);
  } catch (const Error& refused) {
    // The same plugin found again later in the search path (a build tree and an install) is
    // routine; anything else refused is worth a warning.
    if (candidates_.back().reason.find("is shadowed by") != std::string::npos)
      log_debug(refused.what());
    else
      log_warning(refused.what());
  }
}

void PluginHost::load_all() {
  std::vector<fs::path> builtin;
  for (const char* name : kBuiltinOperatorPlugins)
    if (const std::optional<fs::path> file = find_named(name)) {
      builtin.push_back(*file);
      if (loaded_plugin(name) == nullptr) load_and_log(*file);
    }
  for (const auto& dir : search_path_) {
    std::error_code error;
    if (!fs::is_directory(dir, error)) {
      log_debug("plugin directory " + dir.string() + " does not exist");
      continue;
    }
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      std::error_code status_error;
      if (it->path().extension() == ".so" && it->is_regular_file(status_error)) files.push_back(it->path());
    }
    if (error) log_warning("cannot list plugin directory " + dir.string() + ": " + error.message());
    std::sort(files.begin(), files.end());
    for (const auto& file : files)
      if (std::find(builtin.begin(), builtin.end(), file) == builtin.end()) load_and_log(file);
  }
}

void PluginHost::load_file(const fs::path& file) {
  PluginCandidate& candidate = record(file);
  log_debug("loading plugin " + file.string());
  boost::dll::shared_library library = open_library(candidate);
  const AscPluginDescriptor& descriptor = read_descriptor(candidate, library);
  check_descriptor(candidate, descriptor);
  if (const auto* first = loaded_plugin(candidate.name))
    refuse(candidate, ErrorCode::PluginDuplicate,
           "plugin '" + candidate.name + "' in " + file.string() + " is shadowed by " + first->file.string() +
               " (the first plugin of a name in the search path wins)");

  PluginRegistrar registrar(registry_, candidate.name, candidate.kinds);
  char message[1024] = {};
  int status = 1;
  try {
    status = descriptor.register_plugin(&registrar, message, sizeof message);
  } catch (...) {
    std::strncpy(message, "an exception crossed the plugin boundary", sizeof message - 1);
  }
  if (status != 0) {
    // What it registered before failing has its code in the library about to be unloaded.
    registry_.remove_plugin(candidate.name);
    const auto [code, detail] = registration_failure(message);
    refuse(candidate, code,
           "plugin '" + candidate.name + "' (" + file.string() + ") was refused: " + detail +
               (code == ErrorCode::PluginDuplicate ? files_of_named_plugins(detail) : std::string()));
  }
  keep_loaded_until_exit(file);
  libraries_->open.push_back(std::move(library));
  candidate.loaded = true;
  log_debug("loaded plugin '" + candidate.name + "' " + candidate.version + " from " + file.string());
}

void PluginHost::load_named(const std::vector<std::string>& plugin_names) {
  for (const std::string& name : plugin_names)
    if (const std::optional<fs::path> file = find_named(name)) load_file(*file);
  require(plugin_names);
}

void PluginHost::require(const std::vector<std::string>& plugin_names) const {
  std::vector<std::string> missing;
  for (const auto& name : plugin_names)
    if (loaded_plugin(name) == nullptr && std::find(missing.begin(), missing.end(), name) == missing.end())
      missing.push_back(name);
  if (missing.empty()) return;

  std::string message = "missing plugin" + std::string(missing.size() > 1 ? "s " : " ") + join(missing) + ".";
  for (const auto& name : missing)
    for (const auto& candidate : candidates_)
      if (candidate.name == name) message += " " + candidate.file.string() + " was refused: " + candidate.reason + ".";
  std::vector<std::string> dirs;
  for (const auto& dir : search_path_) dirs.push_back(dir.string());
  message += " Searched: " + (dirs.empty() ? std::string("(nothing)") : join(dirs)) +
             ". Add a directory with --plugin-dir DIR or $ASC_PLUGIN_PATH; `asc plugins` lists what was found.";
  throw Error(ErrorCode::PluginNotFound, message);
}

}  // namespace asc::host
