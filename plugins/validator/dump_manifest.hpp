// Reads a dump directory written by a backend run with dump_dir (see plugins/backend_reference/
// node_dump.hpp): <dir>/manifest.json lists every node in execution order with its op type, its
// provenance (the original model nodes it stands for) and its dumped outputs.
#pragma once

#include <asc/sdk/tensor.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace asc::validator {

struct DumpedOutput {
  std::int64_t index = 0;
  std::string value;  // the graph value it holds
  std::filesystem::path file;
  std::string dtype;
  // The lowest precision the values carry: "precision" when the writer records it (the NPU
  // simulator stores fp16 results in float32 tensors: dtype float32, precision float16), else dtype.
  std::string precision;
  Shape shape;
};

struct DumpedNode {
  std::string name, op_type;
  std::vector<std::string> provenance;
  std::vector<DumpedOutput> outputs;
  const DumpedOutput* output(std::int64_t index) const;
};

struct DumpManifest {
  std::filesystem::path dir;
  std::vector<DumpedNode> nodes;  // execution order
};

// Throws EE4001 when the directory or its manifest.json is missing, EE4004 naming the field when
// the manifest is not what the dump writer produces.
DumpManifest read_dump_manifest(const std::filesystem::path& dir);

}  // namespace asc::validator
