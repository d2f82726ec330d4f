#include "dump_manifest.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <nlohmann/json.hpp>

namespace asc::validator {
namespace {

using Json = nlohmann::ordered_json;

[[noreturn]] void malformed(const std::filesystem::path& file, const std::string& what) {
  throw Error(ErrorCode::FileFormatInvalid, "dump manifest '" + file.string() + "': " + what);
}

const Json& field(const Json& object, const char* key, Json::value_t type, const std::filesystem::path& file,
                  const std::string& where) {
  const auto it = object.find(key);
  const bool type_ok =
      it != object.end() && (it->type() == type || (type == Json::value_t::number_integer &&
                                                    it->type() == Json::value_t::number_unsigned));
  if (!type_ok) malformed(file, where + " needs '" + key + "' of type " + Json(type).type_name());
  return *it;
}

DumpedOutput read_output(const Json& entry, const std::filesystem::path& file, const std::string& where) {
  if (!entry.is_object()) malformed(file, where + " is not an object");
  DumpedOutput output;
  output.index = field(entry, "index", Json::value_t::number_integer, file, where).get<std::int64_t>();
  output.file = field(entry, "file", Json::value_t::string, file, where).get<std::string>();
  if (entry.contains("value") && entry["value"].is_string()) output.value = entry["value"].get<std::string>();
  if (entry.contains("dtype") && entry["dtype"].is_string()) output.dtype = entry["dtype"].get<std::string>();
  output.precision = output.dtype;
  if (entry.contains("precision") && entry["precision"].is_string())
    output.precision = entry["precision"].get<std::string>();
  if (entry.contains("shape") && entry["shape"].is_array())
    for (const Json& dim : entry["shape"]) {
      if (!dim.is_number_integer()) malformed(file, where + ": 'shape' holds a non-integer");
      output.shape.push_back(dim.get<std::int64_t>());
    }
  return output;
}

}  // namespace

const DumpedOutput* DumpedNode::output(std::int64_t index) const {
  for (const DumpedOutput& o : outputs)
    if (o.index == index) return &o;
  return nullptr;
}

DumpManifest read_dump_manifest(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error))
    throw Error(ErrorCode::FileNotFound, "dump directory '" + dir.string() + "' does not exist");
  const std::filesystem::path file = dir / "manifest.json";
  const std::vector<std::byte> bytes = read_file(file);
  Json manifest;
  try {
    manifest = Json::parse(reinterpret_cast<const char*>(bytes.data()),
                           reinterpret_cast<const char*>(bytes.data()) + bytes.size());
  } catch (const Json::parse_error& e) {
    malformed(file, std::string("not JSON: ") + e.what());
  }
  if (!manifest.is_object()) malformed(file, "the top level is not an object");
  const Json& nodes = field(manifest, "nodes", Json::value_t::object, file, "the top level");
  DumpManifest result{dir, {}};
  for (const auto& [name, entry] : nodes.items()) {
    const std::string where = "node '" + name + "'";
    if (!entry.is_object()) malformed(file, where + " is not an object");
    DumpedNode node;
    node.name = name;
    if (entry.contains("op_type") && entry["op_type"].is_string())
      node.op_type = entry["op_type"].get<std::string>();
    if (entry.contains("provenance")) {
      if (!entry["provenance"].is_array()) malformed(file, where + ": 'provenance' is not a list");
      for (const Json& original : entry["provenance"]) {
        if (!original.is_string()) malformed(file, where + ": 'provenance' holds a non-string");
        node.provenance.push_back(original.get<std::string>());
      }
    }
    const Json& outputs = field(entry, "outputs", Json::value_t::array, file, where);
    for (std::size_t i = 0; i < outputs.size(); ++i)
      node.outputs.push_back(read_output(outputs[i], file, where + " output entry " + std::to_string(i)));
    result.nodes.push_back(std::move(node));
  }
  return result;
}

}  // namespace asc::validator
