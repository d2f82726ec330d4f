// The .om file: a CompiledModel on disk (om.proto after the header of om_header.hpp), and its
// JSON view for `atc --mode=1`. docs/om_format.md describes the format.
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "compiler/compiled_model.hpp"

namespace asc::npusim {

// The file's bytes: header then payload. Weights are stored at their device dtype where that is
// a narrower float (weight_storage.hpp). A model over 2 GiB of payload is EE4003.
std::vector<std::byte> encode_om(const CompiledModel& model);
// Writes encode_om(model) atomically (no partial file on failure; EE4003 naming the path).
void write_om(const CompiledModel& model, const std::filesystem::path& path);

// The model back, weights widened to their host dtype. Throws EE4004 naming `origin` for bad
// magic, an unsupported version, a length or checksum mismatch, an unparsable payload, unknown
// enum values, malformed tensors and dangling references (a node reading a missing weight).
CompiledModel decode_om(std::span<const std::byte> file, const std::string& origin);
// decode_om of the file's bytes; a missing file is EE4001, an unreadable one EE4002.
CompiledModel read_om(const std::filesystem::path& path);

// What `atc --mode=1 --om=x.om --json=x.json` shows (docs/om_format.md lists the fields): header,
// graph inputs/outputs, every op with its provenance (original_op_names) and per-profile task
// (formats, tiling, workspace), every profile's input shapes and memory plan, and the weights'
// dtypes, shapes and sizes (not their data).
nlohmann::ordered_json om_to_json(const CompiledModel& model);

}  // namespace asc::npusim
