#include "elf_sanity.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <vector>

namespace asc::host {
namespace {

// first + count * size, or nothing on overflow.
std::optional<std::uint64_t> end_of(std::uint64_t first, std::uint64_t count, std::uint64_t size) {
  if (size != 0 && count > (UINT64_MAX - first) / size) return std::nullopt;
  return first + count * size;
}

std::string segment_type(std::uint32_t type) {
  switch (type) {
    case PT_LOAD: return "LOAD";
    case PT_DYNAMIC: return "DYNAMIC";
    case PT_INTERP: return "INTERP";
    case PT_NOTE: return "NOTE";
    case PT_TLS: return "TLS";
    default: return "type " + std::to_string(type);
  }
}

template <typename T>
bool read_at(std::ifstream& in, std::uint64_t offset, T& value) {
  in.seekg(static_cast<std::streamoff>(offset));
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&value), sizeof value));
}

}  // namespace

std::optional<std::string> elf_truncation(const std::filesystem::path& file) {
  std::error_code error;
  const std::uint64_t size = std::filesystem::file_size(file, error);
  if (error) return std::nullopt;  // dlopen reports what is wrong with it
  std::ifstream in(file, std::ios::binary);
  unsigned char ident[EI_NIDENT] = {};
  if (!in.read(reinterpret_cast<char*>(ident), sizeof ident) || std::memcmp(ident, ELFMAG, SELFMAG) != 0 ||
      ident[EI_CLASS] != ELFCLASS64)
    return std::nullopt;
  const std::string bytes = "it is " + std::to_string(size) + " bytes, ";
  Elf64_Ehdr header{};
  if (!read_at(in, 0, header)) return bytes + "too short for an ELF header (" + std::to_string(sizeof header) + ")";
  if (header.e_phnum == 0) return bytes + "with no program headers";
  if (header.e_phentsize != sizeof(Elf64_Phdr))
    return bytes + "its program headers are " + std::to_string(header.e_phentsize) + " bytes each, not " +
           std::to_string(sizeof(Elf64_Phdr));
  const auto headers_end = end_of(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr));
  if (!headers_end || *headers_end > size)
    return bytes + "its program header table needs " + (headers_end ? std::to_string(*headers_end) : "more");
  for (std::uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    if (!read_at(in, header.e_phoff + i * sizeof segment, segment)) return bytes + "its program headers are unreadable";
    const auto end = end_of(segment.p_offset, 1, segment.p_filesz);
    if (!end || *end > size)
      return bytes + "its program header " + std::to_string(i) + " (" + segment_type(segment.p_type) + ") needs " +
             (end ? std::to_string(*end) : "more");
  }
  if (header.e_shnum != 0) {
    const auto sections_end = end_of(header.e_shoff, header.e_shnum, header.e_shentsize);
    if (!sections_end || *sections_end > size)
      return bytes + "its section header table needs " + (sections_end ? std::to_string(*sections_end) : "more");
  }
  return std::nullopt;
}

}  // namespace asc::host
