#include "om_custom_ops.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>

#include "om/om.pb.h"
#include "om/om_header.hpp"

namespace asc::ais_bench {
namespace {

using google::protobuf::internal::WireFormatLite;

constexpr int kOptionsField = 2;  // CompiledModel.options (om.proto)

[[noreturn]] void corrupt(const std::filesystem::path& om, const std::string& what) {
  throw Error(ErrorCode::FileFormatInvalid, "model file " + om.string() + ": " + what);
}

}  // namespace

std::vector<std::filesystem::path> om_op_lib_dirs(const std::filesystem::path& om) {
  const std::vector<std::byte> file = read_file(om);
  const std::span<const std::byte> payload = npusim::om_payload(file, om.string());
  google::protobuf::io::CodedInputStream input(reinterpret_cast<const std::uint8_t*>(payload.data()),
                                               static_cast<int>(payload.size()));
  input.SetTotalBytesLimit(static_cast<int>(std::min<std::size_t>(payload.size() + 1, INT32_MAX)));
  asc::om::CompileOptions options;
  for (std::uint32_t tag = input.ReadTag(); tag != 0; tag = input.ReadTag()) {
    if (WireFormatLite::GetTagFieldNumber(tag) == kOptionsField &&
        WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      std::string bytes;
      std::uint32_t length = 0;
      if (!input.ReadVarint32(&length) || !input.ReadString(&bytes, static_cast<int>(length)) ||
          !options.ParseFromString(bytes))
        corrupt(om, "its compile options do not parse");
    } else if (!WireFormatLite::SkipField(&input, tag)) {
      corrupt(om, "its payload does not parse");
    }
  }
  std::vector<std::filesystem::path> dirs;
  for (const std::string& dir : options.op_lib_paths()) dirs.emplace_back(dir);
  return dirs;
}

}  // namespace asc::ais_bench
