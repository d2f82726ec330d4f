#include "buffer_arena.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>

namespace asc::detail {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// A region's usual size: room for a batch-8 ResNet-50's largest activations (25.7 MB) twice.
// Address space only; the memory counts once touched.
constexpr std::size_t kRegionBytes = std::size_t{64} << 20;
constexpr std::size_t kBlockAlignment = 4096;
// Larger requests cannot be mapped on any machine, and rounding them up could wrap around.
constexpr std::size_t kLargestBytes = std::size_t{1} << 56;

std::size_t round_up(std::size_t value, std::size_t to) {
  return (value + to - 1) / to * to;
}

// `bytes` (a multiple of kHugePage) of fresh memory aligned to kHugePage, or nullptr.
std::byte* map_region(std::size_t bytes) {
  void* mapped = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  auto* start = static_cast<std::byte*>(mapped);
  auto* aligned = reinterpret_cast<std::byte*>(round_up(reinterpret_cast<std::uintptr_t>(start), kHugePage));
  // Unmap the slack on either side of the aligned range.
  if (aligned != start) munmap(start, static_cast<std::size_t>(aligned - start));
  if (const auto tail = static_cast<std::size_t>(start + kHugePage - aligned); tail != 0)
    munmap(aligned + bytes, tail);
#if defined(MADV_HUGEPAGE)
  madvise(aligned, bytes, MADV_HUGEPAGE);  // a hint: where transparent huge pages are off, 4 KiB pages
#endif
  return aligned;
}

class Arena {
 public:
  void* allocate(std::size_t bytes) {
    if (bytes > kLargestBytes) return nullptr;
    const std::size_t size = round_up(bytes, kBlockAlignment);
    const std::lock_guard lock(mutex_);
    auto fit = free_by_size_.lower_bound({size, nullptr});
    if (fit == free_by_size_.end()) {
      const std::size_t region_bytes = std::max(kRegionBytes, round_up(size, kHugePage));
      std::byte* region = map_region(region_bytes);
      if (region == nullptr) return nullptr;
      regions_.emplace(region, region_bytes);
      mapped_ += region_bytes;
      fit = add_free(region, region_bytes);
    }
    const auto [block_size, block] = *fit;
    remove_free(block, block_size);
    if (block_size > size) add_free(block + size, block_size - size);
    used_.emplace(block, size);
    used_bytes_ += size;
    return block;
  }

  void free(void* pointer) noexcept {
    auto* block = static_cast<std::byte*>(pointer);
    const std::lock_guard lock(mutex_);
    const auto found = used_.find(block);
    if (found == used_.end()) return;
    std::size_t size = found->second;
    used_.erase(found);
    used_bytes_ -= size;
    const auto region = region_of(block);
    // Merge with the free neighbours in the same region.
    if (const auto next = free_by_address_.find(block + size);
        next != free_by_address_.end() && region_of(next->first) == region) {
      const std::size_t next_size = next->second;
      remove_free(next->first, next_size);
      size += next_size;
    }
    if (auto after = free_by_address_.lower_bound(block); after != free_by_address_.begin()) {
      const auto previous = std::prev(after);
      if (previous->first + previous->second == block && region_of(previous->first) == region) {
        const auto [previous_block, previous_size] = *previous;
        remove_free(previous_block, previous_size);
        block = previous_block;
        size += previous_size;
      }
    }
    if (block == region->first && size == region->second && size > kRegionBytes) {
      munmap(block, size);
      mapped_ -= size;
      regions_.erase(region);
      return;
    }
    add_free(block, size);
  }

  ArenaUsage usage() {
    const std::lock_guard lock(mutex_);
    return {used_bytes_, mapped_};
  }

 private:
  using FreeBySize = std::set<std::pair<std::size_t, std::byte*>>;

  FreeBySize::iterator add_free(std::byte* block, std::size_t size) {
    free_by_address_.emplace(block, size);
    return free_by_size_.emplace(size, block).first;
  }

  void remove_free(std::byte* block, std::size_t size) {
    free_by_address_.erase(block);
    free_by_size_.erase({size, block});
  }

  std::map<std::byte*, std::size_t>::iterator region_of(std::byte* address) {
    return std::prev(regions_.upper_bound(address));
  }

  std::mutex mutex_;
  std::map<std::byte*, std::size_t> regions_;  // start, bytes
  std::map<std::byte*, std::size_t> free_by_address_;
  FreeBySize free_by_size_;  // best fit: the smallest free block that holds the request
  std::unordered_map<std::byte*, std::size_t> used_;
  std::size_t used_bytes_ = 0, mapped_ = 0;
};

// Never destroyed: buffers held by static objects are freed after static destructors have run.
Arena& arena() {
  static Arena* const instance = new Arena;
  return *instance;
}

}  // namespace

void* arena_allocate(std::size_t bytes) {
  return arena().allocate(bytes);
}

void arena_free(void* block) noexcept {
  arena().free(block);
}

std::shared_ptr<void> allocate_buffer_memory(std::size_t bytes) {
  if (kArenaServes && bytes >= kArenaLeastBytes) {
    void* block = arena_allocate(bytes);
    if (block == nullptr) return nullptr;
    return {block, arena_free};
  }
  constexpr std::size_t kAlignment = 64;
  void* memory = std::aligned_alloc(kAlignment, round_up(bytes, kAlignment));  // a multiple, as it needs
  if (memory == nullptr) return nullptr;
  return {memory, std::free};
}

ArenaUsage arena_usage() {
  return arena().usage();
}

}  // namespace asc::detail
