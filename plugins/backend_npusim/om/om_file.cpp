#include "om/om_file.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <algorithm>
#include <limits>

#include "om/om.pb.h"
#include "om/om_enums.hpp"
#include "om/om_header.hpp"
#include "om/om_model_check.hpp"
#include "om/om_model_codec.hpp"

namespace asc::npusim {

std::vector<std::byte> encode_om(const CompiledModel& model) {
  const om::CompiledModel proto = encode_model(model);
  const std::size_t payload_bytes = proto.ByteSizeLong();
  // protobuf's own limit for one message.
  if (payload_bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw Error(ErrorCode::FileWriteFailed, "model '" + model.graph.name + "' needs " + std::to_string(payload_bytes) +
                                                " bytes in the .om format, which holds at most 2 GiB");
  std::vector<std::byte> file(kOmHeaderBytes + payload_bytes);
  const std::span<std::byte> payload = std::span(file).subspan(kOmHeaderBytes);
  if (!proto.SerializeToArray(payload.data(), static_cast<int>(payload.size())))
    throw Error(ErrorCode::Internal, "serializing model '" + model.graph.name + "' for the .om failed");
  const auto header = om_header_for(payload);
  std::copy(header.begin(), header.end(), file.begin());
  return file;
}

void write_om(const CompiledModel& model, const std::filesystem::path& path) {
  write_file_atomically(path, encode_om(model));
}

namespace {

// The checked header's payload, parsed.
om::CompiledModel parse_om(std::span<const std::byte> file, const std::string& origin) {
  const std::span<const std::byte> payload = om_payload(file, origin);
  if (payload.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    om_format_error(origin, "", "payload of " + std::to_string(payload.size()) + " bytes exceeds the 2 GiB limit");
  om::CompiledModel proto;
  if (!proto.ParseFromArray(payload.data(), static_cast<int>(payload.size())))
    om_format_error(origin, "", "the payload is not a valid asc.om.CompiledModel protobuf message");
  return proto;
}

CompiledModel decode_checked(om::CompiledModel& proto, const std::string& origin) {
  CompiledModel model = decode_model(proto, origin);
  check_om_references(model, origin);
  return model;
}

}  // namespace

CompiledModel decode_om(std::span<const std::byte> file, const std::string& origin) {
  om::CompiledModel proto = parse_om(file, origin);
  return decode_checked(proto, origin);
}

CompiledModel read_om(const std::filesystem::path& path) {
  om::CompiledModel proto;
  {
    // The file's bytes go before the weights are decoded: the three copies of the weights (file,
    // message, host tensors) were BERT-base's peak memory when loaded together.
    const std::vector<std::byte> bytes = read_file(path);
    proto = parse_om(bytes, path.string());
  }
  return decode_checked(proto, path.string());
}

}  // namespace asc::npusim
