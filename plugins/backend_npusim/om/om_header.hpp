// The fixed 24-byte header in front of an .om file's protobuf payload (all little-endian):
//   bytes 0..7   magic "ASCOM\0\r\n" (the CR LF catches text-mode transfers)
//   bytes 8..11  format version (uint32), kOmFormatVersion when written
//   bytes 12..15 CRC-32 (IEEE 802.3, zlib's crc32) of the payload
//   bytes 16..23 payload length in bytes (uint64)
// followed by exactly `payload length` bytes of asc.om.CompiledModel (om.proto).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace asc::npusim {

inline constexpr std::uint32_t kOmFormatVersion = 1;
inline constexpr std::size_t kOmHeaderBytes = 24;
inline constexpr std::array<char, 8> kOmMagic = {'A', 'S', 'C', 'O', 'M', '\0', '\r', '\n'};

std::uint32_t crc32(std::span<const std::byte> bytes);

// The header for `payload`, written by this build (kOmFormatVersion).
std::array<std::byte, kOmHeaderBytes> om_header_for(std::span<const std::byte> payload);

// Checks the header of a whole .om file (magic, version, length, checksum) and returns its
// payload. Throws EE4004 naming `origin` and what is wrong.
std::span<const std::byte> om_payload(std::span<const std::byte> file, const std::string& origin);

}  // namespace asc::npusim
