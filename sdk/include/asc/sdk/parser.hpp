// Parser plugins: turn a model file into an asc::Graph.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "asc/sdk/graph.hpp"

namespace asc {

struct ParseOptions {
  // Fixes graph input shapes (ATC's --input_shape); -1 keeps a dimension dynamic.
  std::map<std::string, std::vector<std::int64_t>> input_shapes;
};

// Parses ATC's --input_shape syntax: "data:1,3,224,224;mask:1,128", where -1 keeps a dimension
// dynamic and "name:" (no dims) is a scalar. The name ends at the last ':' so names like
// "input:0" work. Throws EE1009 naming the offending entry.
std::map<std::string, std::vector<std::int64_t>> parse_input_shape_spec(std::string_view text);

class Parser {
 public:
  virtual ~Parser() = default;
  // Short name used in pipelines and by --framework mapping, e.g. "onnx".
  virtual std::string name() const = 0;
  // File extensions this parser takes, lower case with the dot: {".onnx"}.
  virtual std::vector<std::string> extensions() const = 0;
  // Parses the file. Errors are EE1xxx asc::Error naming the file and, where there is one, the node.
  virtual Graph parse(const std::filesystem::path& model, const ParseOptions& options) const = 0;
};

}  // namespace asc
