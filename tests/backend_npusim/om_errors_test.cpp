// Reading a bad .om: every way a file can be wrong is EE4001/EE4004 naming the file and the
// fault, and arbitrary bytes never crash the reader.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <algorithm>
#include <cstring>
#include <random>

#include "om/om_file.hpp"
#include "om/om_header.hpp"
#include "om/om_model_codec.hpp"
#include "om_test_model.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;
using namespace asc::npusim;

namespace {

// A well-formed header in front of `payload`.
std::vector<std::byte> with_header(std::span<const std::byte> payload) {
  const auto header = om_header_for(payload);
  std::vector<std::byte> file(kOmHeaderBytes + payload.size());
  std::memcpy(file.data(), header.data(), kOmHeaderBytes);
  if (!payload.empty()) std::memcpy(file.data() + kOmHeaderBytes, payload.data(), payload.size());
  return file;
}

std::vector<std::byte> file_of(const om::CompiledModel& proto) {
  std::string payload;
  REQUIRE(proto.SerializeToString(&payload));
  return with_header(std::as_bytes(std::span(payload.data(), payload.size())));
}

void check_invalid(const std::vector<std::byte>& file, std::initializer_list<std::string> fragments) {
  const Error error = error_from([&] { decode_om(file, "bad.om"); });
  CHECK(error.code() == ErrorCode::FileFormatInvalid);
  const std::string message = error.what();
  CHECK_MESSAGE(message.find("bad.om: ") != std::string::npos, message);
  for (const std::string& fragment : fragments) CHECK_MESSAGE(message.find(fragment) != std::string::npos, message);
}

}  // namespace

TEST_CASE("a missing .om is EE4001 naming the path") {
  TempDir dir;
  const Error error = error_from([&] { read_om(dir / "absent.om"); });
  CHECK(error.code() == ErrorCode::FileNotFound);
  CHECK(std::string(error.what()).find("absent.om") != std::string::npos);
}

TEST_CASE("a file that is not an .om is EE4004 'not an .om file'") {
  TempDir dir;
  const std::string text = "\x08\x07\x12\x07pytorch";  // the start of an ONNX ModelProto
  write_text_atomically(dir / "model.om", text);
  const Error error = error_from([&] { read_om(dir / "model.om"); });
  CHECK(error.code() == ErrorCode::FileFormatInvalid);
  CHECK(std::string(error.what()).find("model.om") != std::string::npos);
  CHECK(std::string(error.what()).find("not an .om file") != std::string::npos);
  check_invalid({}, {"not an .om file"});
}

TEST_CASE("a file shorter than the header is EE4004 'truncated' with both sizes") {
  std::vector<std::byte> file = encode_om(om_test_model());
  file.resize(10);
  check_invalid(file, {"truncated", "header needs 24 bytes, the file has 10"});
}

TEST_CASE("another format version is EE4004 naming it and the supported one") {
  std::vector<std::byte> file = encode_om(om_test_model());
  const std::uint32_t version = 7;
  std::memcpy(file.data() + 8, &version, 4);
  check_invalid(file, {"format version 7 is not supported", "reads version 1"});
}

TEST_CASE("a truncated payload is EE4004 with the expected and actual byte counts") {
  std::vector<std::byte> file = encode_om(om_test_model());
  const std::size_t payload = file.size() - kOmHeaderBytes;
  file.resize(file.size() - 100);
  check_invalid(file, {"truncated", "announces " + std::to_string(payload) + " payload bytes",
                       "holds " + std::to_string(payload - 100)});
  file.resize(kOmHeaderBytes);
  check_invalid(file, {"truncated", "holds 0 after the 24-byte header"});
}

TEST_CASE("trailing bytes after the payload are EE4004 'oversized'") {
  std::vector<std::byte> file = encode_om(om_test_model());
  file.push_back(std::byte{0});
  check_invalid(file, {"oversized"});
}

TEST_CASE("a flipped payload byte is EE4004 'corrupted': the checksum does not match") {
  std::vector<std::byte> file = encode_om(om_test_model());
  file[file.size() / 2] ^= std::byte{0x10};
  check_invalid(file, {"corrupted", "checksum"});
}

TEST_CASE("a payload that is not the protobuf message is EE4004") {
  const std::vector<std::byte> garbage(64, std::byte{0xff});
  check_invalid(with_header(garbage), {"not a valid asc.om.CompiledModel"});
}

TEST_CASE("unknown dtype and format codes are EE4004 naming the field") {
  om::CompiledModel proto = encode_model(om_test_model());
  REQUIRE(proto.graph().initializers(0).name() == "b");  // sorted by name
  proto.mutable_graph()->mutable_initializers(0)->mutable_tensor()->set_stored_dtype(static_cast<om::DataType>(99));
  check_invalid(file_of(proto), {"initializer 'b'", "unknown dtype code 99"});

  proto = encode_model(om_test_model());
  proto.mutable_profiles(1)->mutable_tasks(0)->set_input_formats(1, static_cast<om::DataFormat>(42));
  check_invalid(file_of(proto), {"profile 'batch=4'", "task of node 'conv1_relu1'", "unknown format code 42"});

  proto = encode_model(om_test_model());
  proto.mutable_graph()->mutable_values(0)->set_dtype(static_cast<om::DataType>(-3));
  check_invalid(file_of(proto), {"value 'conv_out'", "unknown dtype code -3"});

  proto = encode_model(om_test_model());
  proto.mutable_profiles(0)->mutable_values(0)->set_region(static_cast<om::MemoryRegion>(9));
  check_invalid(file_of(proto), {"placement of 'x'", "unknown memory region code 9"});
}

TEST_CASE("a weight whose bytes do not match its shape is EE4004 with both sizes") {
  om::CompiledModel proto = encode_model(om_test_model());
  om::TensorData& b = *proto.mutable_graph()->mutable_initializers(0)->mutable_tensor();
  b.mutable_data()->resize(126);  // 64 fp16 elements need 128 bytes
  check_invalid(file_of(proto), {"initializer 'b'", "float16[64] needs 128 bytes, the file holds 126"});
}

TEST_CASE("a node reading a weight the file lacks is EE4004 naming node and weight") {
  CompiledModel model = om_test_model();
  model.graph.initializers.erase("w");
  check_invalid(encode_om(model), {"node 'conv1_relu1' (Conv)", "initializer 'w'", "does not contain"});

  model = om_test_model();
  model.graph.find_node("reshape")->inputs[0] = "nowhere";
  check_invalid(encode_om(model), {"node 'reshape' (com.microsoft.Reshape)", "'nowhere'", "no graph input, initializer or earlier node"});
}

TEST_CASE("a profile naming a node or input the graph lacks is EE4004") {
  CompiledModel model = om_test_model();
  model.profiles[0].tasks[2].node = "ghost";
  check_invalid(encode_om(model), {"profile 'batch=1'", "task for node 'ghost'"});

  model = om_test_model();
  model.profiles[1].input_shapes["z"] = {1};
  check_invalid(encode_om(model), {"profile 'batch=4'", "'z', which is not a graph input"});

  model = om_test_model();
  model.profiles.clear();
  check_invalid(encode_om(model), {"no compiled profile"});
}

TEST_CASE("a profile that contradicts the graph it runs is EE4004, not an internal error at load") {
  // Found by fuzzing: a valid checksum over a payload whose memory plan lacks a value.
  CompiledModel model = om_test_model();
  auto& values = model.profiles[1].values;
  values.erase(std::find_if(values.begin(), values.end(), [](const ValuePlacement& p) { return p.value == "conv_out"; }));
  check_invalid(encode_om(model), {"profile 'batch=4'", "node 'conv1_relu1' (Conv)",
                                   "value 'conv_out' has no placement in the profile's memory plan"});

  model = om_test_model();
  model.profiles[0].tasks.pop_back();
  check_invalid(encode_om(model), {"profile 'batch=1'", "3 tasks for the graph's 4 nodes"});

  model = om_test_model();
  std::swap(model.profiles[0].tasks[1], model.profiles[0].tasks[2]);
  check_invalid(encode_om(model), {"profile 'batch=1'", "task 1 is for node 'reshape', the graph's node 1 is 'cast_conv_out'"});
}

TEST_CASE("write_om leaves nothing behind when it cannot write") {
  TempDir dir;
  const Error error = error_from([&] { write_om(om_test_model(), dir / "missing_dir" / "x.om"); });
  CHECK(error.code() == ErrorCode::FileWriteFailed);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("random bytes overwritten anywhere in an .om are refused as EE4004, never a crash") {
  const std::vector<std::byte> original = encode_om(om_test_model());
  std::mt19937 generator(11);
  int unchanged = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<std::byte> bytes = original;
    for (int flip = 0, flips = 1 + static_cast<int>(generator() % 4); flip < flips; ++flip)
      bytes[generator() % bytes.size()] = static_cast<std::byte>(generator() & 0xff);
    if (bytes == original) {
      ++unchanged;
      continue;
    }
    const Error error = error_from([&] { decode_om(bytes, "mutated.om"); });
    CHECK_MESSAGE(error.code() == ErrorCode::FileFormatInvalid, error.what());
  }
  MESSAGE(unchanged << " of 300 rounds left the file unchanged");
}

TEST_CASE("every truncation of an .om is refused as EE4004") {
  const std::vector<std::byte> original = encode_om(om_test_model());
  for (std::size_t length = 0; length < original.size(); length += 1 + length / 16) {
    const std::vector<std::byte> prefix(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(length));
    const Error error = error_from([&] { decode_om(prefix, "short.om"); });
    CHECK_MESSAGE(error.code() == ErrorCode::FileFormatInvalid, error.what());
  }
}

// The checksum stops nearly all damage before the protobuf parser sees it; here the header is
// rewritten to match the mutated payload, so the parser and the model checks meet it.
TEST_CASE("mutated and cut payloads behind a valid header decode or fail with EE4004, never crash") {
  // A small weight, so that most mutations land in the structure rather than in weight bytes.
  CompiledModel model = om_test_model();
  model.graph.initializers["w"] = Tensor::from_vector<float>({2, 2}, {1.0f, -2.0f, 0.5f, 4.0f});
  const std::vector<std::byte> original = encode_om(model);
  const std::span<const std::byte> payload = std::span(original).subspan(kOmHeaderBytes);
  std::mt19937 generator(5);
  int decoded = 0, refused = 0;
  for (int round = 0; round < 600; ++round) {
    std::vector<std::byte> mutated(payload.begin(), payload.end());
    if (round % 3 == 2) mutated.resize(generator() % mutated.size());
    for (int flip = 0, flips = static_cast<int>(generator() % 5); flip < flips && !mutated.empty(); ++flip)
      mutated[generator() % mutated.size()] = static_cast<std::byte>(generator() & 0xff);
    try {
      decode_om(with_header(mutated), "mutated.om");
      ++decoded;
    } catch (const Error& error) {
      CHECK_MESSAGE(error.code() == ErrorCode::FileFormatInvalid, error.what());
      ++refused;
    }
  }
  MESSAGE(decoded << " mutated payloads decode, " << refused << " refused");
  CHECK(decoded + refused == 600);
}
