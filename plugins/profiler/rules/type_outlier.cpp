// Seed: "若单个算子的耗时有异常峰值（超过同类算子平均耗时的3倍），优先检查该算子的输入shape是否存在极端值".
// Each task is compared with the mean task time of its operator type.
#include <algorithm>
#include <map>

#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

constexpr double kFactor = 3.0;
constexpr std::size_t kTypeOutlierListed = 5;

std::vector<Advice> check_type_outlier(const ProfileFacts& facts) {
  std::map<std::string, const TypeFacts*> types;
  for (const TypeFacts& type : facts.types) types[type.op_type] = &type;
  std::map<std::string, const TaskFacts*> worst;  // op name -> its slowest outlying task
  for (const TaskFacts& task : facts.tasks) {
    const TypeFacts& type = *types.at(task.event->op_type);
    if (type.count < 2 || task.event->duration_us <= kFactor * type.mean_us) continue;
    const TaskFacts*& slot = worst[task.event->op_name];
    if (slot == nullptr || slot->event->duration_us < task.event->duration_us) slot = &task;
  }
  if (worst.empty()) return {};
  std::vector<const TaskFacts*> outliers;
  for (const auto& [name, task] : worst) outliers.push_back(task);
  std::stable_sort(outliers.begin(), outliers.end(), [](const TaskFacts* a, const TaskFacts* b) {
    return a->event->duration_us > b->event->duration_us;
  });
  std::vector<Advice> advice;
  for (std::size_t i = 0; i < std::min(kTypeOutlierListed, outliers.size()); ++i) {
    const ProfileEvent& event = *outliers[i]->event;
    const TypeFacts& type = *types.at(event.op_type);
    advice.push_back(
        {"type_outlier", "warning",
         operator_label(event.op_name, event.op_type) + " took " + format_us(event.duration_us) + ", " +
             format_fixed(event.duration_us / type.mean_us, 1) + "x the mean " + event.op_type + " time of " +
             format_us(type.mean_us) + " (" + std::to_string(type.count) + " tasks). Its inputs: shapes " +
             (event.input_shapes.empty() ? "N/A" : event.input_shapes) + ", dtypes " +
             (event.input_dtypes.empty() ? "N/A" : event.input_dtypes) + ", formats " +
             (event.input_formats.empty() ? "N/A" : event.input_formats) +
             ". Check for extreme shape values; avoid extreme dynamic-shape values or give this operator "
             "a custom tiling"});
  }
  if (outliers.size() > kTypeOutlierListed)
    advice.back().message +=
        " (" + std::to_string(outliers.size() - kTypeOutlierListed) + " more outliers not listed)";
  return advice;
}

}  // namespace

Rule type_outlier_rule() {
  return {"type_outlier",
          "a task takes more than 3 times the mean task time of its operator type",
          {{"factor", kFactor, "multiple of the type's mean task time that makes a task an outlier"}},
          check_type_outlier};
}

}  // namespace asc::profiler
