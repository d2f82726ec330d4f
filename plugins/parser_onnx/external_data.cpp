#include "external_data.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include <asc/sdk/error.hpp>

#include "model_label.hpp"
#include "onnx_types.hpp"
#include "tensor_walk.hpp"

namespace asc::parser_onnx {
namespace {

namespace fs = std::filesystem;

struct ExternalEntry {
  std::string location;
  std::uint64_t offset = 0;
  std::optional<std::uint64_t> length;
};

// A regular file opened for reading. Opened without following a final symlink (the path given
// is already canonical) and without blocking, so a FIFO planted in the model directory is
// refused rather than hanging the parse.
class DataFile {
 public:
  // `context` prefixes error messages.
  DataFile(const fs::path& path, const std::string& context) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd_ < 0)
      throw Error(ErrorCode::ExternalDataInvalid, context + ": cannot open '" + path.string() + "': " + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd_);
      throw Error(ErrorCode::ExternalDataInvalid, context + ": '" + path.string() + "' is not a regular file");
    }
    size_ = static_cast<std::uint64_t>(info.st_size);
  }
  ~DataFile() { ::close(fd_); }
  DataFile(const DataFile&) = delete;
  DataFile& operator=(const DataFile&) = delete;

  std::uint64_t size() const noexcept { return size_; }
  const fs::path& path() const noexcept { return path_; }

  // Reads exactly out.size() bytes at `offset`; false when the file ends first.
  bool read_at(std::uint64_t offset, std::string& out) const {
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t got = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      done += static_cast<std::size_t>(got);
    }
    return true;
  }

 private:
  fs::path path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

std::uint64_t parse_byte_count(const std::string& key, const std::string& text, const std::string& context) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size())
    throw Error(ErrorCode::ExternalDataInvalid,
                context + ": external data entry '" + key + "' is '" + text + "', not a byte count");
  return value;
}

ExternalEntry read_entry(const onnx::TensorProto& tensor, const std::string& context) {
  ExternalEntry entry;
  for (const auto& item : tensor.external_data()) {
    if (item.key() == "location") entry.location = item.value();
    else if (item.key() == "offset") entry.offset = parse_byte_count("offset", item.value(), context);
    else if (item.key() == "length") entry.length = parse_byte_count("length", item.value(), context);
  }
  if (entry.location.empty())
    throw Error(ErrorCode::ExternalDataInvalid, context + ": stored as external data but has no 'location' entry");
  return entry;
}

// The canonical path of `location`, which must stay inside `model_dir` (itself canonical).
fs::path resolve_location(const fs::path& model_dir, const std::string& location, const std::string& context) {
  const std::string refused = context + ": external data location '" + location + "' refused: ";
  if (location.find('\0') != std::string::npos) throw Error(ErrorCode::ExternalDataRefused, refused + "it contains a NUL byte");
  const fs::path relative(location);
  if (relative.has_root_path())
    throw Error(ErrorCode::ExternalDataRefused, refused + "it must be a path relative to the model directory");
  if (std::any_of(relative.begin(), relative.end(), [](const fs::path& part) { return part == ".."; }))
    throw Error(ErrorCode::ExternalDataRefused, refused + "it must not contain '..'");

  std::error_code error;
  const fs::path target = fs::canonical(model_dir / relative, error);
  if (error)
    throw Error(ErrorCode::ExternalDataInvalid, context + ": external data file '" + (model_dir / relative).string() +
                                                    "' cannot be used: " + error.message());
  const auto dir_end = std::mismatch(model_dir.begin(), model_dir.end(), target.begin(), target.end()).first;
  if (dir_end != model_dir.end())
    throw Error(ErrorCode::ExternalDataRefused, refused + "it resolves to '" + target.string() +
                                                    "', outside the model directory '" + model_dir.string() + "'");
  return target;
}

class ExternalDataLoader {
 public:
  explicit ExternalDataLoader(const fs::path& model_path)
      : model_path_(model_path), model_dir_(fs::canonical(fs::absolute(model_path).parent_path())) {}

  void load(onnx::TensorProto& tensor, const std::string& label) {
    const std::string context = model_label(model_path_) + ": " + label;
    const ExternalEntry entry = read_entry(tensor, context);
    const DataFile& file = open(resolve_location(model_dir_, entry.location, context), context);

    // Without a length entry the tensor's own size says how much to read (for types asc knows;
    // otherwise the rest of the file, as ONNX's Python loader does).
    std::optional<std::uint64_t> expected;
    if (const auto dtype = dtype_from_onnx(tensor.data_type()))
      expected = element_count(tensor, label, model_path_) * dtype_size(*dtype);
    if (entry.length && expected && *entry.length != *expected)
      throw Error(ErrorCode::ExternalDataInvalid, context + ": external data length " + std::to_string(*entry.length) +
                                                      " does not match the " + std::to_string(*expected) +
                                                      " bytes its type and shape need");
    if (entry.offset > file.size())
      throw Error(ErrorCode::ExternalDataInvalid, context + ": external data offset " + std::to_string(entry.offset) +
                                                      " lies beyond the end of '" + file.path().string() + "' (" +
                                                      std::to_string(file.size()) + " bytes)");
    const std::uint64_t length = entry.length ? *entry.length : expected.value_or(file.size() - entry.offset);
    if (length > file.size() - entry.offset)
      throw Error(ErrorCode::ExternalDataInvalid,
                  context + ": external data needs bytes [" + std::to_string(entry.offset) + ", " +
                      std::to_string(entry.offset + length) + ") of '" + file.path().string() + "', which has only " +
                      std::to_string(file.size()) + " bytes");

    std::string bytes(static_cast<std::size_t>(length), '\0');
    if (!file.read_at(entry.offset, bytes))
      throw Error(ErrorCode::ExternalDataInvalid, context + ": reading '" + file.path().string() + "' ended early");
    tensor.set_raw_data(std::move(bytes));
    tensor.clear_external_data();
    tensor.set_data_location(onnx::TensorProto::DEFAULT);
  }

 private:
  const DataFile& open(const fs::path& path, const std::string& context) {
    auto& file = files_[path];
    if (!file) file = std::make_unique<DataFile>(path, context);
    return *file;
  }

  fs::path model_path_;
  fs::path model_dir_;
  std::map<fs::path, std::unique_ptr<DataFile>> files_;
};

}  // namespace

void load_external_data(onnx::ModelProto& model, const std::filesystem::path& model_path) {
  std::optional<ExternalDataLoader> loader;  // created on first use: most models have no external data
  for_each_tensor(model, [&](onnx::TensorProto& tensor, const std::string& label) {
    if (tensor.data_location() != onnx::TensorProto::EXTERNAL) return;
    if (!loader) loader.emplace(model_path);
    loader->load(tensor, label);
  });
}

}  // namespace asc::parser_onnx
