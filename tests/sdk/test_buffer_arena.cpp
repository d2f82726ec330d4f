// The arena of large buffers (sdk/src/buffer_arena.hpp) and Buffer::allocate_uninitialized.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "asc/sdk/error.hpp"
#include "asc/sdk/tensor.hpp"
#include "buffer_arena.hpp"

namespace {

using asc::detail::arena_allocate;
using asc::detail::arena_free;
using asc::detail::arena_usage;

constexpr std::size_t kMiB = std::size_t{1} << 20;

std::uintptr_t address(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

// The VmFlags of the mapping that holds `p`, from /proc/self/smaps ("" when not found).
std::string mapping_flags(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= address(p) && address(p) < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

}  // namespace

TEST_CASE("Buffer::allocate_uninitialized: the size asked, aligned, writable end to end") {
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{100}, asc::detail::kArenaLeastBytes - 1,
                                  asc::detail::kArenaLeastBytes, 3 * kMiB + 5}) {
    CAPTURE(bytes);
    const auto buffer = asc::Buffer::allocate_uninitialized(bytes);
    REQUIRE(buffer->data() != nullptr);
    CHECK(buffer->size() == bytes);
    const bool from_arena = asc::detail::kArenaServes && bytes >= asc::detail::kArenaLeastBytes;
    CHECK(address(buffer->data()) % (from_arena ? 4096 : 64) == 0);
    std::memset(buffer->data(), 0xA5, bytes);
    if (bytes != 0) CHECK(static_cast<unsigned char>(buffer->data()[bytes - 1]) == 0xA5);
  }
  // allocate() still zero-fills, from the arena too (a reused block holds the last user's bytes).
  for (int round = 0; round < 2; ++round) {
    const auto buffer = asc::Buffer::allocate(kMiB);
    for (std::size_t i = 0; i < kMiB; i += 4093) CHECK(buffer->data()[i] == std::byte{0});
    std::memset(buffer->data(), 0x5A, kMiB);
  }
}

TEST_CASE("arena: the same buffers again, run after run, map no new memory") {
  const std::vector<std::size_t> run{3 * kMiB + 4096, 800 * 1024, 3 * kMiB + 4096, 1536 * 1024, 300 * 1024};
  const auto one_run = [&] {
    std::vector<void*> blocks;
    for (const std::size_t bytes : run) {
      blocks.push_back(arena_allocate(bytes));
      REQUIRE(blocks.back() != nullptr);
      std::memset(blocks.back(), 1, bytes);
    }
    for (std::size_t i = 0; i < blocks.size(); ++i)  // disjoint
      for (std::size_t j = 0; j < blocks.size(); ++j)
        if (i != j)
          CHECK((address(blocks[i]) + run[i] <= address(blocks[j]) ||
                 address(blocks[j]) + run[j] <= address(blocks[i])));
    for (void* block : blocks) arena_free(block);
  };
  const asc::detail::ArenaUsage before = arena_usage();
  one_run();
  const std::size_t mapped = arena_usage().mapped_bytes;
  for (int i = 0; i < 20; ++i) one_run();
  CHECK(arena_usage().mapped_bytes == mapped);
  CHECK(arena_usage().used_bytes == before.used_bytes);
}

TEST_CASE("arena: freed neighbours merge into one block") {
  // An odd size, so that no other free block is likely to fit the merged request exactly.
  const std::size_t bytes = kMiB + 3 * 4096;
  void* first = arena_allocate(bytes);
  void* second = arena_allocate(bytes);
  void* third = arena_allocate(bytes);  // keeps the pair from merging with the rest of the region
  REQUIRE(first != nullptr);
  REQUIRE(second != nullptr);
  REQUIRE(third != nullptr);
  // Best fit carves consecutive requests from the front of the same free block.
  REQUIRE(address(second) == address(first) + bytes);
  arena_free(second);
  arena_free(first);
  void* both = arena_allocate(2 * bytes);
  CHECK(both == first);
  arena_free(both);
  arena_free(third);
}

TEST_CASE("arena: a buffer larger than a region goes back to the system when freed") {
  const std::size_t mapped = arena_usage().mapped_bytes;
  void* big = arena_allocate(100 * kMiB);
  REQUIRE(big != nullptr);
  CHECK(address(big) % (2 * kMiB) == 0);
  CHECK(arena_usage().mapped_bytes >= mapped + 100 * kMiB);
  arena_free(big);
  CHECK(arena_usage().mapped_bytes == mapped);
}

TEST_CASE("a buffer the system cannot give is EE3001 or null, not a wrapped-around size") {
  // Sizes whose rounding up to the arena's 4 KiB blocks or 2 MiB regions would pass 2^64.
  for (const std::size_t bytes : {std::size_t{1} << 60, ~std::size_t{0} - 8}) {
    CAPTURE(bytes);
    CHECK(arena_allocate(bytes) == nullptr);
    // malloc's path under AddressSanitizer would stop at ASan's own size limit instead.
    if (asc::detail::kArenaServes)
      CHECK_THROWS_WITH_AS(asc::Buffer::allocate_uninitialized(bytes), doctest::Contains("cannot allocate"),
                           asc::Error);
  }
}

TEST_CASE("arena: its memory is advised for transparent huge pages where the kernel has them") {
  if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) return;
  void* block = arena_allocate(4 * kMiB);
  REQUIRE(block != nullptr);
  const std::string flags = mapping_flags(block);
  CAPTURE(flags);
  CHECK(flags.find(" hg") != std::string::npos);  // VM_HUGEPAGE: madvise(MADV_HUGEPAGE) took
  arena_free(block);
}

TEST_CASE("arena: threads allocating and freeing at once get disjoint blocks") {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &failures] {
      std::uint32_t seed = 12345u + static_cast<std::uint32_t>(t);
      for (int i = 0; i < 200; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const std::size_t bytes = 256 * 1024 + seed % (2 * kMiB);
        auto* block = static_cast<unsigned char*>(arena_allocate(bytes));
        if (block == nullptr) {
          ++failures[static_cast<std::size_t>(t)];
          continue;
        }
        std::memset(block, t + 1, bytes);
        std::this_thread::yield();
        for (std::size_t k = 0; k < bytes; k += 997)
          if (block[k] != t + 1) ++failures[static_cast<std::size_t>(t)];
        arena_free(block);
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (const int failed : failures) CHECK(failed == 0);
}
