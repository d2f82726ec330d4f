#include "asc/sdk/msprof/collection_options.hpp"

#include "asc/sdk/error.hpp"
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace asc::msprof {
namespace {

std::string string_value(const nlohmann::ordered_json& config, const char* key, const std::string& fallback,
                         const std::string& source) {
  if (!config.contains(key)) return fallback;
  if (!config[key].is_string())
    throw Error(ErrorCode::ConfigWrongType, source + ": \"" + key + "\" must be a string");
  return config[key].get<std::string>();
}

[[noreturn]] void bad_value(const std::string& source, const char* key, const std::string& value,
                            const std::string& allowed) {
  throw Error(ErrorCode::ConfigBadValue,
              source + ": \"" + key + "\" is \"" + value + "\"; " + allowed);
}

bool on_off(const nlohmann::ordered_json& config, const char* key, bool fallback, const std::string& source) {
  const std::string value = string_value(config, key, fallback ? "on" : "off", source);
  // msprof leaves switches it did not set empty.
  if (value.empty()) return fallback;
  if (value == "on") return true;
  if (value == "off") return false;
  bad_value(source, key, value, "expected \"on\" or \"off\"");
}

}  // namespace

CollectionOptions default_collection(const std::filesystem::path& result_dir) {
  CollectionOptions options;
  options.result_dir = result_dir;
  const nlohmann::ordered_json config = {{"result_dir", result_dir.string()},
                                           {"ai_core_profiling", "on"},
                                           {"ai_core_profiling_mode", "task-based"},
                                           {"aicore_sampling_interval", options.sampling_interval_ms},
                                           {"ai_core_metrics", "PipeUtilization"},
                                           {"taskTime", "on"}};
  options.sample_config = config.dump(1) + "\n";
  return options;
}

CollectionOptions parse_sample_config(const std::string& text, const std::string& source) {
  nlohmann::ordered_json config;
  try {
    config = nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw Error(ErrorCode::ConfigSyntax, source + " is not valid JSON: " + error.what());
  }
  if (!config.is_object()) throw Error(ErrorCode::ConfigSyntax, source + " must be a JSON object");

  CollectionOptions options;
  options.sample_config = config.dump(1) + "\n";
  const std::string result_dir = string_value(config, "result_dir", "", source);
  if (result_dir.empty())
    throw Error(ErrorCode::ConfigMissingKey, source + " has no \"result_dir\": where should the profile go?");
  options.result_dir = result_dir;
  options.ai_core = on_off(config, "ai_core_profiling", true, source);

  const std::string mode = string_value(config, "ai_core_profiling_mode", "task-based", source);
  if (mode == "task-based" || mode.empty())
    options.aic_mode = AicMode::TaskBased;
  else if (mode == "sample-based")
    options.aic_mode = AicMode::SampleBased;
  else
    bad_value(source, "ai_core_profiling_mode", mode, "expected \"task-based\" or \"sample-based\"");

  if (config.contains("aicore_sampling_interval")) {
    const auto& interval = config["aicore_sampling_interval"];
    if (!interval.is_number_integer())
      throw Error(ErrorCode::ConfigWrongType, source + ": \"aicore_sampling_interval\" must be an integer (ms)");
    // msprof's --aic-freq is 1..100 Hz: periods from 10 ms to 1 s.
    const auto ms = interval.get<long long>();
    if (ms < 10 || ms > 1000)
      bad_value(source, "aicore_sampling_interval", std::to_string(ms),
                "the sampling period must be 10..1000 ms (--aic-freq 1..100 Hz)");
    options.sampling_interval_ms = static_cast<int>(ms);
  }

  const std::string metrics = string_value(config, "ai_core_metrics", "PipeUtilization", source);
  if (!metrics.empty() && metrics != "PipeUtilization")
    bad_value(source, "ai_core_metrics", metrics,
              "the simulator's PMU model fills PipeUtilization only (pipe busy times from the timing model)");

  const std::string task_time = string_value(config, "taskTime", "on", source);
  if (task_time == "on" || task_time == "l1" || task_time.empty())
    options.task_time = TaskTimeLevel::L1;
  else if (task_time == "l0")
    options.task_time = TaskTimeLevel::L0;
  else if (task_time == "off")
    options.task_time = TaskTimeLevel::Off;
  else
    bad_value(source, "taskTime", task_time, "expected \"on\", \"off\", \"l0\" or \"l1\"");
  return options;
}

std::optional<CollectionOptions> collection_from_environment() {
  const char* value = std::getenv(kSampleConfigVariable);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return parse_sample_config(value, std::string("environment variable ") + kSampleConfigVariable);
}

}  // namespace asc::msprof
