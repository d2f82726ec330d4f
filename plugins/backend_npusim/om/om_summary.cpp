#include "om/om_summary.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <algorithm>
#include <array>
#include <fstream>

#include "om/om.pb.h"
#include "om/om_header.hpp"

namespace asc::npusim {
namespace {

using google::protobuf::internal::WireFormatLite;

// CompiledModel's fields (om.proto) read here; the graph (5) is skipped.
constexpr int kSocVersionField = 1;
constexpr int kOptionsField = 2;
constexpr int kProfilesField = 7;

[[noreturn]] void corrupt(const std::filesystem::path& om, const std::string& what) {
  throw Error(ErrorCode::FileFormatInvalid, "model file " + om.string() + ": " + what);
}

template <class Message>
void read_message(google::protobuf::io::CodedInputStream& input, Message& message, const std::filesystem::path& om,
                  const char* what) {
  std::string bytes;
  std::uint32_t length = 0;
  if (!input.ReadVarint32(&length) || !input.ReadString(&bytes, static_cast<int>(length)) ||
      !message.ParseFromString(bytes))
    corrupt(om, std::string("its ") + what + " do not parse");
}

}  // namespace

bool is_om_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::array<char, kOmMagic.size()> head{};
  return file.read(head.data(), static_cast<std::streamsize>(head.size())) && head == kOmMagic;
}

ModelFileInfo describe_om(const std::filesystem::path& path) {
  const std::vector<std::byte> file = read_file(path);
  const std::span<const std::byte> payload = om_payload(file, path.string());
  google::protobuf::io::CodedInputStream input(reinterpret_cast<const std::uint8_t*>(payload.data()),
                                               static_cast<int>(payload.size()));
  input.SetTotalBytesLimit(static_cast<int>(std::min<std::size_t>(payload.size() + 1, INT32_MAX)));
  ModelFileInfo info;
  info.backend = "npusim";
  for (std::uint32_t tag = input.ReadTag(); tag != 0; tag = input.ReadTag()) {
    const int field = WireFormatLite::GetTagFieldNumber(tag);
    const bool delimited = WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
    if (delimited && field == kSocVersionField) {
      std::uint32_t length = 0;
      if (!input.ReadVarint32(&length) || !input.ReadString(&info.soc_version, static_cast<int>(length)))
        corrupt(path, "its soc_version does not parse");
    } else if (delimited && field == kOptionsField) {
      om::CompileOptions options;
      read_message(input, options, path, "compile options");
      info.precision_mode = options.precision_mode();
      for (const std::string& dir : options.op_lib_paths()) info.op_lib_dirs.emplace_back(dir);
    } else if (delimited && field == kProfilesField) {
      om::CompiledProfile proto;
      read_message(input, proto, path, "profiles");
      InputProfile profile{proto.label(), {}};
      for (const om::InputShape& entry : proto.input_shapes())
        profile.input_shapes[entry.input()] = Shape(entry.dims().begin(), entry.dims().end());
      info.profiles.push_back(std::move(profile));
    } else if (!WireFormatLite::SkipField(&input, tag)) {
      corrupt(path, "its payload does not parse");
    }
  }
  return info;
}

}  // namespace asc::npusim
