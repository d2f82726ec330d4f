#include "asc/host/pipeline_runner.hpp"

#include <chrono>
#include <cstdio>
#include <new>

#include "asc/host/tool_main.hpp"
#include "asc/sdk/log.hpp"

namespace asc::host {
namespace {

std::string failure_prefix(const PlannedStage& stage) {
  return "stage '" + stage.label + "' (" + stage.where.file_and_line() + ") failed: ";
}

std::string milliseconds(std::chrono::steady_clock::duration elapsed) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f ms", std::chrono::duration<double, std::milli>(elapsed).count());
  return text;
}

// Exceptions that are not asc::Error are bugs in the stage; they get the internal error's form.
std::string internal_error(const std::string& what) {
  return Error(ErrorCode::Internal, "a stage threw a non-asc exception: " + what).what();
}

}  // namespace

void run_pipeline(const PipelinePlan& plan, PipelineContext& context) {
  std::int64_t enabled = 0;
  for (const auto& stage : plan.stages) enabled += stage.disabled ? 0 : 1;
  log_info("pipeline '" + plan.name + "': " + std::to_string(enabled) + " of " + std::to_string(plan.stages.size()) +
           " stages enabled");
  Progress progress(plan.name, enabled, context.show_progress);
  for (const auto& stage : plan.stages) {
    if (stage.disabled) {
      log_info("stage '" + stage.label + "' is disabled, skipped");
      continue;
    }
    log_debug("stage '" + stage.label + "' (" + stage.definition->name + ") starts");
    const auto start = std::chrono::steady_clock::now();
    try {
      stage.definition->run(context, stage.params);
    } catch (const Error& error) {
      throw StageFailure(error.code(), failure_prefix(stage) + error.what());
    } catch (const std::bad_alloc& error) {
      const Error coded = coded_error(error);
      throw StageFailure(coded.code(), failure_prefix(stage) + coded.what());
    } catch (const std::exception& error) {
      throw StageFailure(ErrorCode::Internal, failure_prefix(stage) + internal_error(error.what()));
    } catch (...) {
      throw StageFailure(ErrorCode::Internal, failure_prefix(stage) + internal_error("unknown exception"));
    }
    log_info("stage '" + stage.label + "' (" + stage.definition->name + ") took " +
             milliseconds(std::chrono::steady_clock::now() - start));
    progress.advance();
  }
}

}  // namespace asc::host
