#include "asc/sdk/msprof/info_json.hpp"

#include "asc/sdk/io.hpp"
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace asc::msprof {
namespace {

// msprof writes frequencies as text in MHz.
std::string megahertz(double mhz) { return std::to_string(static_cast<long long>(mhz)); }

}  // namespace

void write_msprof_info(const std::filesystem::path& prof_dir, const ProfiledModel& model, const DeviceInfo& device) {
  const nlohmann::ordered_json device_entry = {{"id", 0},
                                               {"ai_core_num", device.ai_core_count},
                                               {"aiv_num", device.split_vector_cores ? device.vector_core_count : 0},
                                               {"aic_frequency", megahertz(device.clock_mhz)},
                                               {"aiv_frequency", megahertz(device.clock_mhz)}};
  nlohmann::ordered_json info = {
      {"version", "1.0"},
      {"devices", "0"},
      {"pid", static_cast<long>(getpid())},
      {"DeviceInfo", nlohmann::ordered_json::array({device_entry})},
      {"soc_version", device.soc_version},
      {"model", {{"name", model.name}, {"precision_mode", model.precision_mode}, {"batch", model.batch}}},
  };
  if (!device.timing_accuracy.empty()) info["timing_accuracy"] = device.timing_accuracy;
  write_text_atomically(prof_dir / "device_0" / "info.json.0", info.dump(1) + "\n");
}

}  // namespace asc::msprof
