// Device and pinned host memory: every allocation the runtime handed out, so that a pointer can
// be checked before it is used. Device memory is host memory underneath (the simulator's device
// is this process), but it is tracked separately: a host pointer where device memory is needed,
// a size past an allocation, a freed pointer or a double free is an error code with a message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace asc::acl {

enum class MemoryKind { Device, Host };

struct Allocation {
  std::byte* base = nullptr;
  std::size_t size = 0;
  MemoryKind kind = MemoryKind::Device;
};

class MemoryRegistry {
 public:
  // A new zero-filled allocation. Device memory counts against `device_capacity`:
  // ACL_ERROR_RT_MEMORY_ALLOCATION when it would not fit.
  void* allocate(std::size_t size, MemoryKind kind, std::int64_t device_capacity);
  // Frees an allocation by its base pointer; ACL_ERROR_RT_MEMORY_FREE for anything else.
  void release(const void* pointer, MemoryKind kind);
  // The allocation containing `pointer`, if any.
  std::optional<Allocation> find(const void* pointer) const;
  std::int64_t device_bytes_in_use() const;
  // Device memory held by loaded models outside any aclrtMalloc (loads without user memory).
  void reserve_device(std::int64_t bytes);
  void unreserve_device(std::int64_t bytes);
  void clear();  // aclFinalize

 private:
  mutable std::mutex mutex_;
  std::map<const std::byte*, Allocation> allocations_;  // by base
  std::int64_t device_bytes_ = 0;
  std::int64_t reserved_bytes_ = 0;
};

MemoryRegistry& memory();

// Checks that [pointer, pointer + bytes) lies in one device allocation (ACL_ERROR_INVALID_PARAM
// naming `what` otherwise: a host pointer, a freed one, or a size past the allocation's end).
void check_device_range(const void* pointer, std::size_t bytes, const std::string& what);
// Checks that `pointer` is not device memory (a host-side argument), nor null.
void check_host_range(const void* pointer, std::size_t bytes, const std::string& what);

}  // namespace asc::acl
