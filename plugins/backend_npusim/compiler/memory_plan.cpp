#include "memory_plan.hpp"

#include <asc/sdk/error.hpp>
#include <algorithm>
#include <limits>

namespace asc::npusim {
namespace {

std::int64_t aligned(std::int64_t bytes) { return (bytes + kMemoryAlignment - 1) / kMemoryAlignment * kMemoryAlignment; }

struct ArenaBuffer {
  std::size_t root;  // index into values
  std::int64_t size = 0;
  int first = 0, last = 0;
  std::int64_t offset = -1;
};

bool overlaps(const ArenaBuffer& a, const ArenaBuffer& b) { return a.first <= b.last && b.first <= a.last; }

// TFLite's greedy-by-size placement: largest first, smallest fitting gap among the buffers whose
// lifetimes overlap, else above all of them.
std::int64_t place_greedy_by_size(std::vector<ArenaBuffer>& buffers) {
  std::vector<ArenaBuffer*> order;
  for (ArenaBuffer& buffer : buffers) order.push_back(&buffer);
  std::stable_sort(order.begin(), order.end(), [](const ArenaBuffer* a, const ArenaBuffer* b) {
    return a->size != b->size ? a->size > b->size : a->first < b->first;
  });
  std::vector<const ArenaBuffer*> placed;
  std::int64_t arena = 0;
  for (ArenaBuffer* buffer : order) {
    std::vector<const ArenaBuffer*> live;
    for (const ArenaBuffer* other : placed)
      if (overlaps(*buffer, *other)) live.push_back(other);
    std::sort(live.begin(), live.end(), [](const ArenaBuffer* a, const ArenaBuffer* b) { return a->offset < b->offset; });
    std::int64_t best_offset = -1, best_gap = std::numeric_limits<std::int64_t>::max(), end = 0;
    for (const ArenaBuffer* other : live) {
      const std::int64_t gap = other->offset - end;
      if (gap >= buffer->size && gap < best_gap) {
        best_gap = gap;
        best_offset = end;
      }
      end = std::max(end, other->offset + other->size);
    }
    buffer->offset = best_offset >= 0 ? best_offset : end;
    arena = std::max(arena, buffer->offset + buffer->size);
    placed.push_back(buffer);
  }
  return arena;
}

const char* region_name(ValuePlacement::Region region) {
  switch (region) {
    case ValuePlacement::Region::Input: return "input";
    case ValuePlacement::Region::Output: return "output";
    case ValuePlacement::Region::Activation: return "activation";
    case ValuePlacement::Region::Weight: return "weight";
  }
  return "activation";
}

}  // namespace

MemoryPlan plan_memory(std::vector<ValuePlacement>& values, const std::map<std::string, std::string>& aliases,
                       bool reuse, std::int64_t workspace_bytes) {
  MemoryPlan plan;
  plan.reuse = reuse;
  plan.workspace_bytes = aligned(workspace_bytes);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < values.size(); ++i) index[values[i].value] = i;

  // One buffer per activation that aliases nothing; aliases stretch their root's lifetime.
  auto root_of = [&](std::string name) {
    for (auto found = aliases.find(name); found != aliases.end(); found = aliases.find(name)) name = found->second;
    return index.at(name);
  };
  std::vector<ArenaBuffer> buffers;
  std::map<std::size_t, std::size_t> buffer_of_root;
  for (std::size_t i = 0; i < values.size(); ++i) {
    ValuePlacement& value = values[i];
    if (value.region != ValuePlacement::Region::Activation || aliases.count(value.value) != 0) continue;
    buffer_of_root[i] = buffers.size();
    buffers.push_back({i, aligned(value.bytes), value.first_task, value.last_task});
  }
  for (const auto& [alias, target] : aliases) {
    ArenaBuffer& buffer = buffers[buffer_of_root.at(root_of(target))];
    const ValuePlacement& value = values[index.at(alias)];
    buffer.first = std::min(buffer.first, value.first_task);
    buffer.last = std::max(buffer.last, value.last_task);
  }
  for (const ArenaBuffer& buffer : buffers) plan.activation_bytes_no_reuse += buffer.size;
  if (reuse) {
    plan.activation_bytes = place_greedy_by_size(buffers);
  } else {
    for (ArenaBuffer& buffer : buffers) {
      buffer.offset = plan.activation_bytes;
      plan.activation_bytes += buffer.size;
    }
  }
  for (const ArenaBuffer& buffer : buffers) values[buffer.root].offset = buffer.offset;
  for (const auto& [alias, target] : aliases) values[index.at(alias)].offset = values[root_of(target)].offset;

  for (ValuePlacement& value : values) {
    std::int64_t* region = nullptr;
    switch (value.region) {
      case ValuePlacement::Region::Input: region = &plan.input_bytes; break;
      case ValuePlacement::Region::Output: region = &plan.output_bytes; break;
      case ValuePlacement::Region::Weight: region = &plan.weight_bytes; break;
      case ValuePlacement::Region::Activation: continue;
    }
    value.offset = *region;
    *region += aligned(value.bytes);
  }
  return plan;
}

void check_device_memory(const CompiledProfile& profile, const SocConfig& soc) {
  const MemoryPlan& plan = profile.memory;
  if (plan.total_bytes() <= soc.device_memory_bytes) return;
  const ValuePlacement* largest = nullptr;
  for (const ValuePlacement& value : profile.values)
    if (largest == nullptr || value.bytes > largest->bytes) largest = &value;
  std::string message = "profile " + profile.label + ": the memory plan needs " + std::to_string(plan.total_bytes()) +
                        " bytes (activations " + std::to_string(plan.activation_bytes) + ", weights " +
                        std::to_string(plan.weight_bytes) + ", workspace " + std::to_string(plan.workspace_bytes) +
                        ", inputs " + std::to_string(plan.input_bytes) + ", outputs " + std::to_string(plan.output_bytes) +
                        ") and " + soc.name + " has " + std::to_string(soc.device_memory_bytes) +
                        " bytes of device memory";
  if (largest != nullptr)
    message += "; the largest tensor is '" + largest->value + "' (" + region_name(largest->region) + ", " +
               std::to_string(largest->bytes) + " bytes, " + std::string(dtype_name(largest->dtype)) +
               shape_to_string(largest->shape) + ")";
  if (plan.reuse) message += "; use fewer or smaller profiles, or a smaller input shape";
  else message += "; memory reuse is off (disable_reuse_memory), turning it on may fit";
  throw Error(ErrorCode::MemoryAllocationFailed, message);
}

}  // namespace asc::npusim
