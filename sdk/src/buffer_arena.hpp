// Where the SDK's large tensor buffers live: regions of memory advised for transparent huge
// pages (2 MiB pages; Linux), shared out best-fit by size and kept for reuse when freed.
//
// Why: a kernel streams its input, output and residual buffers, several megabytes each; in 4 KiB
// pages that is a TLB miss every 4 KiB, and under a hypervisor each miss walks two page tables.
// glibc's heap gives 4 KiB pages unless the process starts with GLIBC_TUNABLES
// glibc.malloc.hugetlb=1, which a library cannot set for its caller. ResNet-50 at batch 1 ran
// 6-8 % faster with that tunable (BENCHMARKS.md, session 17); this arena gets the same pages
// for the buffers that matter, whatever the process's environment.
//
// Freed blocks are merged with free neighbours and kept: a run's buffers are allocated again by
// the next run, which then touches no new page (as glibc's heap below its trim threshold). A
// region bigger than the usual one (a single buffer larger than kRegionBytes) goes back to the
// system when it is free, as glibc returns its largest blocks. Builds with AddressSanitizer
// leave every buffer to malloc, so that it still sees overflows and uses after free.
#pragma once

#include <cstddef>
#include <memory>

namespace asc::detail {

// Buffers from this size up come from the arena; smaller ones from malloc.
inline constexpr std::size_t kArenaLeastBytes = std::size_t{256} << 10;

// AddressSanitizer sees overflows and uses after free only in malloc's blocks.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kArenaServes = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kArenaServes = false;
#else
inline constexpr bool kArenaServes = true;
#endif
#else
inline constexpr bool kArenaServes = true;
#endif

// Memory for a buffer of `bytes` (at least 1), contents undefined, that the returned pointer owns:
// from the arena from kArenaLeastBytes up (4096-byte aligned; malloc's under AddressSanitizer),
// else from aligned_alloc (64-byte aligned). Null when the system has no memory left. Thread-safe.
std::shared_ptr<void> allocate_buffer_memory(std::size_t bytes);

// The arena itself (for tests): `bytes` of 4096-byte aligned memory, contents undefined, or
// nullptr when the system has none left; and giving a block back. Thread-safe.
void* arena_allocate(std::size_t bytes);
void arena_free(void* block) noexcept;

// What the arena holds, for tests: bytes in blocks handed out, and bytes mapped in all.
struct ArenaUsage {
  std::size_t used_bytes = 0, mapped_bytes = 0;
};
ArenaUsage arena_usage();

}  // namespace asc::detail
