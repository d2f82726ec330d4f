#include "msprof/profiled_model.hpp"

#include <algorithm>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>
#include <nlohmann/json.hpp>
#include <vector>

namespace asc::profiler {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// The PROF_* directory above the exported files (up to two levels), else their parent.
std::filesystem::path profile_root(const std::filesystem::path& op_summary_dir) {
  std::filesystem::path dir = std::filesystem::absolute(op_summary_dir).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();
  std::filesystem::path candidate = dir;
  for (int level = 0; level <= 2; ++level) {
    if (starts_with(candidate.filename().string(), "PROF_")) return candidate;
    candidate = candidate.parent_path();
  }
  return dir.parent_path();
}

std::vector<std::filesystem::path> info_files(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& device : std::filesystem::directory_iterator(root, error)) {
    if (!device.is_directory(error) || !starts_with(device.path().filename().string(), "device_")) continue;
    for (const auto& entry : std::filesystem::directory_iterator(device.path(), error))
      if (entry.is_regular_file(error) && starts_with(entry.path().filename().string(), "info.json"))
        files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string text_at(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::optional<ProfiledModel> read_profiled_model(const std::filesystem::path& op_summary_dir) {
  for (const std::filesystem::path& file : info_files(profile_root(op_summary_dir))) {
    nlohmann::json info;
    try {
      const std::vector<std::byte> bytes = read_file(file);
      info = nlohmann::json::parse(reinterpret_cast<const char*>(bytes.data()),
                                   reinterpret_cast<const char*>(bytes.data()) + bytes.size());
    } catch (const std::exception& error) {
      log_warning("modelTrade: ignoring " + file.string() + ": " + error.what());
      continue;
    }
    if (!info.is_object()) continue;
    ProfiledModel facts;
    facts.file = file;
    facts.soc_version = text_at(info, "soc_version");
    facts.timing_accuracy = text_at(info, "timing_accuracy");
    if (const auto model = info.find("model"); model != info.end() && model->is_object()) {
      facts.model_name = text_at(*model, "name");
      facts.precision_mode = text_at(*model, "precision_mode");
      if (const auto batch = model->find("batch"); batch != model->end() && batch->is_number_integer())
        facts.batch = batch->get<std::int64_t>();
    }
    if (!facts.model_name.empty() || !facts.soc_version.empty()) return facts;
  }
  return std::nullopt;
}

}  // namespace asc::profiler
