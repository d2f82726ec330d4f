// External data: loaded from side files inside the model directory; anything escaping it is
// refused (EE1006, CVE-2022-25882), anything missing or short is EE1007.
#include <doctest/doctest.h>

#include "parser_fixture.hpp"

namespace asc::test {

TEST_CASE("external data written by onnx.save_model loads") {
  const Graph graph = parse(model_path("ext/ok/model.onnx"));
  const Tensor& weights = graph.initializers.at("W1");
  CHECK(weights.dtype() == DType::Float32);
  CHECK(weights.shape() == Shape{2, 3});
  CHECK(weights.to_doubles() == std::vector<double>{-1.0, -0.75, -0.5, -0.25, 0.0, 0.25});
  CHECK(graph.initializers.at("shape").to_int64s() == std::vector<std::int64_t>{3});
  CHECK(type_of(graph, "Y") == "float32[3]");
}

TEST_CASE("external data in a subdirectory, or behind a symlink that stays inside, loads") {
  for (const std::string model : {"ext/subdir/model.onnx", "ext/inner_symlink/model.onnx"}) {
    INFO(model);
    const Graph graph = parse(model_path(model));
    CHECK(graph.initializers.at("W").to_doubles() == std::vector<double>{1, 2, 3, 4});
  }
}

TEST_CASE("external data locations escaping the model directory are refused") {
  const std::pair<const char*, const char*> cases[] = {
      {"ext/dotdot/model.onnx", "../outside.bin"},        {"ext/dotdot_inside/model.onnx", "data/../w.bin"},
      {"ext/absolute/model.onnx", "/etc/passwd"},         {"ext/symlink_file/model.onnx", "link.bin"},
      {"ext/symlink_dir/model.onnx", "d/w.bin"},
  };
  for (const auto& [model, location] : cases) {
    const std::string label = model;
    INFO(label);
    const auto path = model_path(model);
    check_error(parse_error(path), ErrorCode::ExternalDataRefused, path, {"'W'", "'" + std::string(location) + "'"});
  }
}

TEST_CASE("missing, short or malformed external data is EE1007") {
  const std::pair<const char*, const char*> cases[] = {
      {"ext/missing/model.onnx", "nope.bin"},    {"ext/short/model.onnx", "only 8 bytes"},
      {"ext/offset_beyond/model.onnx", "100"},   {"ext/length_mismatch/model.onnx", "length 8"},
      {"ext/bad_offset/model.onnx", "'ten'"},    {"ext/fifo/model.onnx", "not a regular file"},
  };
  for (const auto& [model, fragment] : cases) {
    const std::string label = model;
    INFO(label);
    const auto path = model_path(model);
    check_error(parse_error(path), ErrorCode::ExternalDataInvalid, path, {"'W'", fragment});
  }
}

}  // namespace asc::test
