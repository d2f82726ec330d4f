// Files that are not (valid) ONNX models: each refused with its EE1xxx code, naming the file.
#include <doctest/doctest.h>

#include <fstream>
#include <random>

#include <asc/sdk/io.hpp>

#include "parser_fixture.hpp"

namespace asc::test {
namespace {

std::filesystem::path write_scratch(const std::string& name, std::span<const std::byte> bytes) {
  const auto path = scratch_path(name);
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
  return path;
}

}  // namespace

TEST_CASE("a missing model file is EE1001") {
  const auto path = model_path("no_such_model.onnx");
  check_error(parse_error(path), ErrorCode::ModelNotFound, path);
}

TEST_CASE("a directory is not a model file") {
  const auto path = model_path("ext");
  check_error(parse_error(path), ErrorCode::ModelNotFound, path);
}

TEST_CASE("a model cut in half is EE1002") {
  const auto bytes = read_file(model_path("conv.onnx"));
  const auto path = write_scratch("half.onnx", std::span(bytes).first(bytes.size() / 2));
  check_error(parse_error(path), ErrorCode::ModelCorrupt, path);
}

TEST_CASE("random bytes are EE1002") {
  std::mt19937 generator(42);
  std::vector<std::byte> bytes(4096);
  for (auto& byte : bytes) byte = static_cast<std::byte>(generator() & 0xff);
  const auto path = write_scratch("random.onnx", bytes);
  check_error(parse_error(path), ErrorCode::ModelCorrupt, path);
}

TEST_CASE("an empty file decodes to an empty ModelProto, which is still EE1002") {
  const auto path = write_scratch("empty.onnx", {});
  check_error(parse_error(path), ErrorCode::ModelCorrupt, path, {"no graph"});
}

TEST_CASE("another protobuf message is EE1002") {
  const auto path = model_path("tensor_not_model.onnx");
  check_error(parse_error(path), ErrorCode::ModelCorrupt, path);
}

TEST_CASE("the ONNX checker's rejection is EE1003 naming the node") {
  const auto path = model_path("checker_fails.onnx");
  check_error(parse_error(path), ErrorCode::ModelCheckFailed, path, {"node 'bad_relu' (Relu)", "bogus"});
}

TEST_CASE("a graph output nothing produces is EE1003 (the checker misses it, the converter crashed on it)") {
  const auto path = model_path("dangling_output.onnx");
  check_error(parse_error(path), ErrorCode::ModelCheckFailed, path, {"output 'Y'"});
}

TEST_CASE("models with random bytes overwritten parse or fail with asc::Error, never crash") {
  std::mt19937 generator(7);
  for (const std::string name : {"conv.onnx", "opset9.onnx", "attributes.onnx"}) {
    const auto original = read_file(model_path(name));
    int parsed = 0;
    int refused = 0;
    for (int round = 0; round < 300; ++round) {
      auto bytes = original;
      for (int flip = 0, flips = 1 + static_cast<int>(generator() % 4); flip < flips; ++flip)
        bytes[generator() % bytes.size()] = static_cast<std::byte>(generator() & 0xff);
      const auto path = write_scratch("mutated_" + name, bytes);
      try {
        parse(path);
        ++parsed;
      } catch (const Error& error) {
        CHECK_MESSAGE(error.code() != ErrorCode::Internal, error.what());
        ++refused;
      }
    }
    MESSAGE(name << ": " << parsed << " mutated models parse, " << refused << " refused");
    CHECK(parsed + refused == 300);
  }
}

TEST_CASE("a shape inference failure is EE1005 naming the node") {
  const auto path = model_path("shape_inference_fails.onnx");
  check_error(parse_error(path), ErrorCode::ShapeInferenceFailed, path, {"node 'add1' (Add)"});
}

TEST_CASE("a stride of 0 is EE2003 naming node and attribute, before ONNX's shape inference divides by it") {
  const auto path = model_path("stride_zero.onnx");
  check_error(parse_error(path), ErrorCode::InvalidOperator, path,
              {"node 'conv0' (Conv)", "attribute strides[1] is 0", "must be at least 1"});
}

TEST_CASE("a Conv weight of another rank than its input is EE2003 naming both, not a crash in ONNX's shape inference") {
  const auto path = model_path("conv_weight_rank.onnx");
  check_error(parse_error(path), ErrorCode::InvalidOperator, path,
              {"node 'conv_rank' (Conv)", "weight 'w3' has 3 dimensions but input 'x2' has 2"});
  // With dilations written for the input's spatial axes (found by fuzz_onnx in a clean-clone CI run).
  const auto dilated = model_path("conv_weight_rank_dilations.onnx");
  check_error(parse_error(dilated), ErrorCode::InvalidOperator, dilated,
              {"node 'conv_dilated' (Conv)", "weight 'w5' has 5 dimensions but input 'x4' has 4"});
}

TEST_CASE("a Conv weight of fewer than 3 dimensions is EE2003 naming node and weight") {
  const auto path = model_path("conv_weight_1d.onnx");
  check_error(parse_error(path), ErrorCode::InvalidOperator, path,
              {"node 'conv_flat' (Conv)", "weight 'w1' has 1 dimensions", "at least 3"});
}

TEST_CASE("an input dimension of -2^63 is EE1003 naming input and dimension, before shape inference") {
  const auto path = model_path("dim_min_int64.onnx");
  check_error(parse_error(path), ErrorCode::ModelCheckFailed, path,
              {"graph input 'X' dimension 1 is -9223372036854775808"});
}

}  // namespace asc::test
