// What a test model contains, read straight from its ModelProto (before our parser sees it):
// used to name the operator a test exercises and to recognise out-of-scope families.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace asc::conformance {

struct ModelFacts {
  std::vector<std::string> main_ops;  // distinct op types of the main graph, in node order
  std::set<std::string> op_types;     // every node's op type, subgraphs included
  std::set<std::string> domains;      // every node's domain ("" for ai.onnx), subgraphs included
  // Non-tensor or non-numeric values anywhere (inputs, outputs, value_info, initializers,
  // attribute tensors): "sequence", "map", "optional", "sparse_tensor", "string".
  std::set<std::string> value_kinds;
};

// Throws std::runtime_error naming the file when it cannot be read or parsed.
ModelFacts read_model_facts(const std::filesystem::path& model);

// The operator a test exercises: the main graph's only op type (Constant nodes aside); else the
// op type whose lower-case name starts the test name with underscores removed (longest wins);
// else the op types joined with '+', sorted.
std::string operator_label(const ModelFacts& facts, const std::string& test_name);

}  // namespace asc::conformance
