#include "memory_registry.hpp"

#include <cstdlib>
#include <cstring>
#include <iterator>

#include "acl/acl_base.h"
#include "api_guard.hpp"

namespace asc::acl {
namespace {

constexpr std::size_t kAlignment = 64;

std::string describe(const Allocation& allocation) {
  char base[32];
  std::snprintf(base, sizeof base, "%p", static_cast<const void*>(allocation.base));
  return std::string(allocation.kind == MemoryKind::Device ? "device" : "host") + " allocation at " + base + " of " +
         std::to_string(allocation.size) + " bytes";
}

}  // namespace

void* MemoryRegistry::allocate(std::size_t size, MemoryKind kind, std::int64_t device_capacity) {
  if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  const std::size_t padded = (size + kAlignment - 1) / kAlignment * kAlignment;
  std::lock_guard lock(mutex_);
  if (kind == MemoryKind::Device &&
      device_bytes_ + reserved_bytes_ + static_cast<std::int64_t>(padded) > device_capacity)
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
         "cannot allocate " + std::to_string(size) + " bytes of device memory: " +
             std::to_string(device_bytes_ + reserved_bytes_) + " of the device's " + std::to_string(device_capacity) +
             " bytes are in use");
  auto* base = static_cast<std::byte*>(std::aligned_alloc(kAlignment, padded));
  if (base == nullptr) fail(ACL_ERROR_BAD_ALLOC, "out of host memory for " + std::to_string(size) + " bytes");
  std::memset(base, 0, padded);
  allocations_[base] = Allocation{base, size, kind};
  if (kind == MemoryKind::Device) device_bytes_ += static_cast<std::int64_t>(padded);
  return base;
}

void MemoryRegistry::release(const void* pointer, MemoryKind kind) {
  const char* name = kind == MemoryKind::Device ? "aclrtMalloc" : "aclrtMallocHost";
  if (pointer == nullptr) fail(ACL_ERROR_INVALID_PARAM, "pointer is null");
  std::lock_guard lock(mutex_);
  const auto found = allocations_.find(static_cast<const std::byte*>(pointer));
  if (found == allocations_.end() || found->second.kind != kind) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", pointer);
    fail(ACL_ERROR_RT_MEMORY_FREE, std::string(text) + " is not the start of a live " + name +
                                       " allocation (freed already, never allocated, or from the other allocator)");
  }
  if (kind == MemoryKind::Device)
    device_bytes_ -= static_cast<std::int64_t>((found->second.size + kAlignment - 1) / kAlignment * kAlignment);
  std::free(found->second.base);
  allocations_.erase(found);
}

std::optional<Allocation> MemoryRegistry::find(const void* pointer) const {
  const auto* address = static_cast<const std::byte*>(pointer);
  std::lock_guard lock(mutex_);
  auto after = allocations_.upper_bound(address);
  if (after == allocations_.begin()) return std::nullopt;
  const Allocation& allocation = std::prev(after)->second;
  if (address >= allocation.base + allocation.size) return std::nullopt;
  return allocation;
}

std::int64_t MemoryRegistry::device_bytes_in_use() const {
  std::lock_guard lock(mutex_);
  return device_bytes_ + reserved_bytes_;
}

void MemoryRegistry::reserve_device(std::int64_t bytes) {
  std::lock_guard lock(mutex_);
  reserved_bytes_ += bytes;
}

void MemoryRegistry::unreserve_device(std::int64_t bytes) {
  std::lock_guard lock(mutex_);
  reserved_bytes_ -= bytes;
}

void MemoryRegistry::clear() {
  std::lock_guard lock(mutex_);
  for (auto& [base, allocation] : allocations_) std::free(allocation.base);
  allocations_.clear();
  device_bytes_ = reserved_bytes_ = 0;
}

MemoryRegistry& memory() {
  static MemoryRegistry registry;
  return registry;
}

void check_device_range(const void* pointer, std::size_t bytes, const std::string& what) {
  if (pointer == nullptr) fail(ACL_ERROR_INVALID_PARAM, what + " is null");
  const std::optional<Allocation> allocation = memory().find(pointer);
  char text[32];
  std::snprintf(text, sizeof text, "%p", pointer);
  if (!allocation || allocation->kind != MemoryKind::Device)
    fail(ACL_ERROR_INVALID_PARAM, what + " (" + text + ") is not device memory" +
                                      (allocation ? " but " + describe(*allocation) + " from aclrtMallocHost"
                                                  : ": a host pointer, or device memory already freed") +
                                      "; device memory comes from aclrtMalloc");
  const auto offset = static_cast<std::size_t>(static_cast<const std::byte*>(pointer) - allocation->base);
  if (bytes > allocation->size - offset)
    fail(ACL_ERROR_INVALID_PARAM, what + ": " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                                      " run past the end of the " + describe(*allocation));
}

void check_host_range(const void* pointer, std::size_t bytes, const std::string& what) {
  if (pointer == nullptr) fail(ACL_ERROR_INVALID_PARAM, what + " is null");
  const std::optional<Allocation> allocation = memory().find(pointer);
  if (allocation && allocation->kind == MemoryKind::Device)
    fail(ACL_ERROR_INVALID_PARAM, what + " is device memory (" + describe(*allocation) +
                                      ") where host memory is expected: check the copy kind");
  if (allocation) {
    const auto offset = static_cast<std::size_t>(static_cast<const std::byte*>(pointer) - allocation->base);
    if (bytes > allocation->size - offset)
      fail(ACL_ERROR_INVALID_PARAM, what + ": " + std::to_string(bytes) + " bytes at offset " +
                                        std::to_string(offset) + " run past the end of the " + describe(*allocation));
  }
}

}  // namespace asc::acl
