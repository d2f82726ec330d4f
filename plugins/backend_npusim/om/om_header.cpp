#include "om/om_header.hpp"

#include <asc/sdk/error.hpp>
#include <zlib.h>
#include <bit>
#include <cstdio>
#include <cstring>

namespace asc::npusim {
namespace {

// The header is read and written with memcpy of native integers.
static_assert(std::endian::native == std::endian::little, "the .om header is little-endian");

constexpr std::size_t kVersionOffset = 8, kChecksumOffset = 12, kLengthOffset = 16;

template <class T> T load(std::span<const std::byte> bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

template <class T> void store(std::span<std::byte> bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}

[[noreturn]] void fail(const std::string& origin, const std::string& detail) {
  throw Error(ErrorCode::FileFormatInvalid, origin + ": " + detail);
}

}  // namespace

std::uint32_t crc32(std::span<const std::byte> bytes) {
  // zlib's (hardware-assisted where available) rather than a table loop: it runs over every
  // weight byte on each write and read.
  return static_cast<std::uint32_t>(
      ::crc32_z(::crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

std::array<std::byte, kOmHeaderBytes> om_header_for(std::span<const std::byte> payload) {
  std::array<std::byte, kOmHeaderBytes> header{};
  std::memcpy(header.data(), kOmMagic.data(), kOmMagic.size());
  store<std::uint32_t>(header, kVersionOffset, kOmFormatVersion);
  store<std::uint32_t>(header, kChecksumOffset, crc32(payload));
  store<std::uint64_t>(header, kLengthOffset, payload.size());
  return header;
}

std::span<const std::byte> om_payload(std::span<const std::byte> file, const std::string& origin) {
  const bool magic_fits = file.size() >= kOmMagic.size();
  if (!magic_fits || std::memcmp(file.data(), kOmMagic.data(), kOmMagic.size()) != 0)
    fail(origin, "not an .om file (it does not start with the .om magic bytes \"ASCOM\\0\\r\\n\"; atc writes .om "
                 "files, an .onnx model goes to --model)");
  if (file.size() < kOmHeaderBytes)
    fail(origin, "truncated .om file: the header needs " + std::to_string(kOmHeaderBytes) + " bytes, the file has " +
                     std::to_string(file.size()));
  const auto version = load<std::uint32_t>(file, kVersionOffset);
  if (version != kOmFormatVersion)
    fail(origin, ".om format version " + std::to_string(version) + " is not supported (this build reads version " +
                     std::to_string(kOmFormatVersion) + "); recompile the model with this build's atc");
  const auto expected = load<std::uint64_t>(file, kLengthOffset);
  const std::uint64_t actual = file.size() - kOmHeaderBytes;
  if (expected != actual)
    fail(origin, std::string(expected > actual ? "truncated" : "oversized") + " .om file: the header announces " +
                     std::to_string(expected) + " payload bytes, the file holds " + std::to_string(actual) +
                     " after the " + std::to_string(kOmHeaderBytes) + "-byte header");
  const std::span<const std::byte> payload = file.subspan(kOmHeaderBytes);
  if (const std::uint32_t stored = load<std::uint32_t>(file, kChecksumOffset), computed = crc32(payload);
      stored != computed) {
    char detail[128];
    std::snprintf(detail, sizeof detail, "corrupted .om file: payload checksum is 0x%08x, the header says 0x%08x",
                  computed, stored);
    fail(origin, detail);
  }
  return payload;
}

}  // namespace asc::npusim
