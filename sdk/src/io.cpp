#include "asc/sdk/io.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <system_error>

#include "asc/sdk/error.hpp"

namespace asc {
namespace fs = std::filesystem;
namespace {

constexpr std::array<char, 6> kNpyMagic{'\x93', 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t kNpyAlignment = 64;

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

// Closes a POSIX file descriptor on scope exit.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// --- .npy header: a Python dict literal with string, bool and int-tuple values -------------

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& origin) : text_(text), origin_(origin) {}

  NpyHeader parse() {
    NpyHeader header;
    bool has_descr = false, has_order = false, has_shape = false;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = parse_string();
      expect(':');
      if (key == "descr") {
        header.descr = parse_descr_value();
        has_descr = true;
      } else if (key == "fortran_order") {
        header.fortran_order = parse_bool();
        has_order = true;
      } else if (key == "shape") {
        header.shape = parse_shape();
        has_shape = true;
      } else {
        fail("unknown header key '" + key + "'");
      }
      skip_space();
      if (peek() != ',') break;
      ++pos_;
    }
    expect('}');
    if (!has_descr || !has_order || !has_shape) fail("header lacks 'descr', 'fortran_order' or 'shape'");
    return header;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::FileFormatInvalid, origin_ + ": malformed .npy header (" + what + "): " + std::string(text_));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string parse_string() {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a string");
    const std::size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string value(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return value;
  }
  // A plain type string, or the one structured type this reader knows, [('bfloat16', '<u2')]
  // (bfloat16 as numpy can read it; see kBfloat16Descr), returned as its text.
  std::string parse_descr_value() {
    skip_space();
    if (peek() != '[') return parse_string();
    expect('[');
    expect('(');
    const std::string field = parse_string();
    expect(',');
    const std::string type = parse_string();
    expect(')');
    skip_space();
    if (peek() == ',') ++pos_;
    expect(']');
    return "[('" + field + "', '" + type + "')]";
  }
  bool parse_bool() {
    skip_space();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("expected True or False");
  }
  Shape parse_shape() {
    expect('(');
    Shape shape;
    while (true) {
      skip_space();
      if (peek() == ')') break;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a dimension");
      std::int64_t dim = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (__builtin_mul_overflow(dim, 10, &dim) || __builtin_add_overflow(dim, peek() - '0', &dim))
          fail("dimension too large");
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2 long suffix
      shape.push_back(dim);
      skip_space();
      if (peek() != ',') break;
      ++pos_;
    }
    expect(')');
    return shape;
  }

  std::string_view text_;
  const std::string& origin_;
  std::size_t pos_ = 0;
};

struct NpyType {
  DType dtype;
  bool byte_swap;
};

// bfloat16 has no numpy type of its own: it is written as a structured type of one uint16 field
// named "bfloat16", which plain numpy loads (arr["bfloat16"] is the raw bits; as float32:
// (arr["bfloat16"].astype(np.uint32) << 16).view(np.float32)), and which names what the bits are.
constexpr const char* kBfloat16Descr = "[('bfloat16', '<u2')]";

NpyType parse_descr(const std::string& descr, const std::string& origin) {
  if (descr == kBfloat16Descr) return {DType::BFloat16, false};
  if (descr == "bfloat16") return {DType::BFloat16, false};  // ml_dtypes' registered name
  if (descr.size() < 2) throw Error(ErrorCode::FileFormatInvalid, origin + ": unsupported .npy dtype '" + descr + "'");
  const char order = descr[0];
  const std::string code = descr.substr(1);
  static const std::map<std::string, DType> kCodes{
      {"f2", DType::Float16}, {"f4", DType::Float32}, {"f8", DType::Float64}, {"i1", DType::Int8},
      {"u1", DType::UInt8},   {"i2", DType::Int16},   {"u2", DType::UInt16},  {"i4", DType::Int32},
      {"u4", DType::UInt32},  {"i8", DType::Int64},   {"u8", DType::UInt64},  {"b1", DType::Bool},
  };
  const auto it = kCodes.find(code);
  if ((order != '<' && order != '>' && order != '|' && order != '=') || it == kCodes.end())
    throw Error(ErrorCode::FileFormatInvalid, origin + ": unsupported .npy dtype '" + descr + "'");
  return {it->second, order == '>' && dtype_size(it->second) > 1};
}

std::string descr_of(DType dtype) {
  switch (dtype) {
    case DType::Float16: return "<f2";
    case DType::BFloat16: return kBfloat16Descr;
    case DType::Float32: return "<f4";
    case DType::Float64: return "<f8";
    case DType::Int8: return "|i1";
    case DType::UInt8: return "|u1";
    case DType::Int16: return "<i2";
    case DType::UInt16: return "<u2";
    case DType::Int32: return "<i4";
    case DType::UInt32: return "<u4";
    case DType::Int64: return "<i8";
    case DType::UInt64: return "<u8";
    case DType::Bool: return "|b1";
    case DType::Undefined: break;
  }
  throw_unsupported_dtype(dtype, "encode_npy");
}

std::uint32_t read_le(std::span<const std::byte> bytes, std::size_t offset, std::size_t width) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value |= std::to_integer<std::uint32_t>(bytes[offset + i]) << (8 * i);
  return value;
}

// --- atomic writes -----------------------------------------------------------------------

// Temporary files are named "<destination>.tmp.<pid>.<random>".
constexpr const char* kTempInfix = ".tmp.";
constexpr std::size_t kTempInfixSize = 5;

// Writes every byte; returns 0 or the errno of the failed write.
int write_all(int fd, std::span<const std::byte> bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    written += static_cast<std::size_t>(n);
  }
  return 0;
}

struct WriteTarget {
  fs::path file;          // where the temporary file goes and what it replaces
  bool direct = false;    // write `path` in place: a device, FIFO or socket, or a /proc magic link
  bool truncate = false;  // when direct: the file is a regular file reached through /proc
};

// A symlink at `path` is followed to the file it finally names (relative targets resolve against
// the link's directory), so the rename replaces that file and the link stays. Devices, FIFOs and
// sockets (/dev/null, /dev/stdout on a terminal or pipe) cannot be renamed over and are written in
// place, as are /proc/self/fd links (their readlink text, "pipe:[123]", is no path).
WriteTarget write_target(const fs::path& path) {
  struct stat followed {};
  const bool exists = ::stat(path.c_str(), &followed) == 0;
  const auto mode = followed.st_mode;
  if (exists && (S_ISCHR(mode) || S_ISBLK(mode) || S_ISFIFO(mode) || S_ISSOCK(mode))) return {path, true, false};
  fs::path current = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code error;
    if (!fs::is_symlink(current, error)) return {current, false, false};
    if (current.lexically_normal().string().rfind("/proc/", 0) == 0) return {path, true, true};
    const fs::path target = fs::read_symlink(current, error);
    if (error)
      throw Error(ErrorCode::FileWriteFailed, "cannot write " + quoted(path) + ": reading the symlink " +
                                                  quoted(current) + ": " + error.message());
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  throw Error(ErrorCode::FileWriteFailed, "cannot write " + quoted(path) + ": too many levels of symbolic links");
}

// The temporary files of writes in progress, for the signal handler. Fixed storage: the handler
// may only read memory and call async-signal-safe functions (unlink). A write that finds every
// slot taken goes unregistered; remove_stale_temporaries still removes its file on a later run.
struct TempSlot {
  std::atomic<bool> claimed{false};
  std::atomic<bool> ready{false};
  char path[PATH_MAX];
};
std::array<TempSlot, 64> temp_slots;

class TemporaryFile {
 public:
  explicit TemporaryFile(const fs::path& path) {
    const std::string& text = path.native();
    if (text.size() >= PATH_MAX) return;
    for (TempSlot& slot : temp_slots) {
      bool expected = false;
      if (!slot.claimed.compare_exchange_strong(expected, true)) continue;
      std::memcpy(slot.path, text.c_str(), text.size() + 1);
      slot.ready.store(true, std::memory_order_release);
      slot_ = &slot;
      return;
    }
  }
  ~TemporaryFile() {
    if (slot_ == nullptr) return;
    slot_->ready.store(false, std::memory_order_release);
    slot_->claimed.store(false, std::memory_order_release);
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

 private:
  TempSlot* slot_ = nullptr;
};

void remove_temporaries_and_die(int signal) {
  for (TempSlot& slot : temp_slots)
    if (slot.ready.load(std::memory_order_acquire)) ::unlink(slot.path);
  // SA_RESETHAND restored the default action: the process dies of the signal, as it would have.
  ::raise(signal);
}

// "<name>.tmp.<pid>.<digits>" -> pid, or 0 when the name is not a temporary file of ours.
pid_t temporary_owner(std::string_view name) {
  const auto infix = name.rfind(kTempInfix);
  if (infix == std::string_view::npos || infix == 0) return 0;
  const std::string_view rest = name.substr(infix + kTempInfixSize);
  const auto dot = rest.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == rest.size()) return 0;
  const auto digits = [](std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(rest.substr(0, dot)) || !digits(rest.substr(dot + 1)) || dot > 9) return 0;
  return static_cast<pid_t>(std::stol(std::string(rest.substr(0, dot))));
}

// Removes, once per directory and process, the temporary files whose writer no longer runs (a
// process killed by SIGKILL or a power cut cannot clean up after itself).
void remove_stale_temporaries(const fs::path& destination) {
  static std::mutex mutex;
  static std::set<fs::path> swept;
  const fs::path dir = destination.parent_path().empty() ? fs::path(".") : destination.parent_path();
  {
    std::lock_guard lock(mutex);
    if (!swept.insert(dir).second) return;
  }
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const pid_t owner = temporary_owner(it->path().filename().native());
    if (owner <= 0 || owner == ::getpid()) continue;
    if (::kill(owner, 0) != 0 && errno == ESRCH) ::unlink(it->path().c_str());
  }
}

}  // namespace

std::vector<std::byte> read_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw Error(ErrorCode::FileNotFound, "no such file " + quoted(path));
  if (fs::is_directory(path, ec)) throw Error(ErrorCode::FileReadFailed, quoted(path) + " is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::FileReadFailed, "cannot open " + quoted(path) + ": " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw Error(ErrorCode::FileReadFailed, "cannot determine the size of " + quoted(path));
  in.seekg(0, std::ios::beg);
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size))
    throw Error(ErrorCode::FileReadFailed, "cannot read " + quoted(path));
  return bytes;
}

void write_file_atomically(const fs::path& path, std::span<const std::byte> bytes) {
  auto fail = [&](const std::string& step, int error) {
    throw Error(ErrorCode::FileWriteFailed, "cannot write " + quoted(path) + ": " + step + ": " + std::strerror(error));
  };
  const WriteTarget target = write_target(path);
  if (target.direct) {
    FileDescriptor file{::open(path.c_str(), O_WRONLY | O_CLOEXEC | (target.truncate ? O_TRUNC : 0))};
    if (file.fd < 0) fail("open", errno);
    if (const int error = write_all(file.fd, bytes); error != 0) fail("write", error);
    return;
  }
  const fs::path& destination = target.file;
  remove_stale_temporaries(destination);
  std::random_device random;
  const fs::path temp =
      destination.string() + kTempInfix + std::to_string(::getpid()) + "." + std::to_string(random());
  TemporaryFile registration(temp);
  auto fail_removing_temp = [&](const std::string& step, int error) {
    ::unlink(temp.c_str());
    fail(step, error);
  };
  {
    FileDescriptor file{::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)};
    if (file.fd < 0) {
      const int error = errno;
      throw Error(ErrorCode::FileWriteFailed,
                  "cannot write " + quoted(path) + ": creating " + quoted(temp) + ": " + std::strerror(error));
    }
    if (const int error = write_all(file.fd, bytes); error != 0) fail_removing_temp("write", error);
    if (::fsync(file.fd) != 0) fail_removing_temp("fsync", errno);
    const int fd = file.fd;
    file.fd = -1;
    if (::close(fd) != 0) fail_removing_temp("close", errno);
  }
  if (::rename(temp.c_str(), destination.c_str()) != 0) fail_removing_temp("rename", errno);
}

void remove_temporary_files_on_signal() {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_die;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(signal, &action, nullptr);
  }
}

bool same_file(const fs::path& a, const fs::path& b) {
  struct stat first {}, second {};
  if (::stat(a.c_str(), &first) != 0 || ::stat(b.c_str(), &second) != 0) return false;
  return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

void refuse_output_over_inputs(const fs::path& output, std::span<const fs::path> inputs, const std::string& what) {
  for (const fs::path& input : inputs)
    if (same_file(output, input))
      throw Error(ErrorCode::FileWriteFailed, "refusing to write " + what + " " + quoted(output) + ": it is the input " +
                                                  quoted(input) + " (the same file), which writing would destroy");
}

void write_text_atomically(const fs::path& path, std::string_view text) {
  write_file_atomically(path, std::as_bytes(std::span<const char>(text.data(), text.size())));
}

Tensor decode_npy(std::span<const std::byte> bytes, const std::string& origin) {
  const std::size_t size = bytes.size();
  if (size < 10 || std::memcmp(bytes.data(), kNpyMagic.data(), kNpyMagic.size()) != 0)
    throw Error(ErrorCode::FileFormatInvalid, origin + ": not a .npy file (bad magic or shorter than 10 bytes)");
  const auto major = std::to_integer<unsigned>(bytes[6]);
  const auto minor = std::to_integer<unsigned>(bytes[7]);
  if (major < 1 || major > 3)
    throw Error(ErrorCode::FileFormatInvalid, origin + ": unsupported .npy format version " + std::to_string(major) +
                                                  "." + std::to_string(minor));
  const std::size_t length_width = major == 1 ? 2 : 4;
  if (size < 8 + length_width) throw Error(ErrorCode::FileFormatInvalid, origin + ": truncated .npy header");
  const std::size_t header_start = 8 + length_width;
  const std::size_t header_length = read_le(bytes, 8, length_width);
  if (header_length > size - header_start)
    throw Error(ErrorCode::FileFormatInvalid, origin + ": truncated .npy header: it claims " +
                                                  std::to_string(header_length) + " bytes, the file has " +
                                                  std::to_string(size - header_start) + " after the preamble");
  const std::string_view header_text(reinterpret_cast<const char*>(bytes.data() + header_start), header_length);
  const NpyHeader header = HeaderParser(header_text, origin).parse();
  const NpyType type = parse_descr(header.descr, origin);

  const std::size_t data_start = header_start + header_length;
  const std::size_t element = dtype_size(type.dtype);
  std::int64_t count = 1;
  for (const std::int64_t dim : header.shape)
    if (__builtin_mul_overflow(count, dim, &count))
      throw Error(ErrorCode::FileFormatInvalid, origin + ": .npy shape " + shape_to_string(header.shape) + " is too large");
  std::size_t data_bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(count), element, &data_bytes) || data_bytes > size - data_start)
    throw Error(ErrorCode::FileFormatInvalid, origin + ": truncated .npy data: shape " +
                                                  shape_to_string(header.shape) + " of " + header.descr + " needs " +
                                                  std::to_string(static_cast<std::size_t>(count) * element) +
                                                  " bytes, the file has " + std::to_string(size - data_start));

  auto buffer = Buffer::allocate(data_bytes);
  std::memcpy(buffer->data(), bytes.data() + data_start, data_bytes);
  if (type.byte_swap)
    for (std::size_t i = 0; i < data_bytes; i += element) std::reverse(buffer->data() + i, buffer->data() + i + element);
  if (type.dtype == DType::Bool)  // anything but 0/1 in a bool is undefined behaviour in C++
    for (std::size_t i = 0; i < data_bytes; ++i) buffer->data()[i] = static_cast<std::byte>(buffer->data()[i] != std::byte{0} ? 1 : 0);

  Shape strides = contiguous_strides(header.shape);
  if (header.fortran_order) {
    std::int64_t stride = 1;
    for (std::size_t d = 0; d < header.shape.size(); ++d) {
      strides[d] = stride;
      // As in contiguous_strides: only a shape with no element overflows, and then nothing is addressed.
      if (__builtin_mul_overflow(stride, std::max<std::int64_t>(header.shape[d], 1), &stride))
        stride = std::numeric_limits<std::int64_t>::max();
    }
  }
  Tensor tensor(std::move(buffer), 0, type.dtype, header.shape, std::move(strides));
  return tensor.contiguous();
}

Tensor read_npy(const fs::path& path) {
  const std::vector<std::byte> bytes = read_file(path);
  return decode_npy(bytes, path.string());
}

std::vector<std::byte> encode_npy(const Tensor& tensor) {
  if (!tensor.defined()) throw Error(ErrorCode::Internal, "encode_npy: undefined tensor");
  const Tensor data = tensor.contiguous();
  const std::string descr = descr_of(data.dtype());
  const std::string descr_literal = descr.front() == '[' ? descr : "'" + descr + "'";
  std::string header = "{'descr': " + descr_literal + ", 'fortran_order': False, 'shape': (";
  for (std::size_t d = 0; d < data.shape().size(); ++d) header += (d == 0 ? "" : ", ") + std::to_string(data.shape()[d]);
  if (data.shape().size() == 1) header += ',';  // Python's one-element tuple
  header += "), }";
  // Version 1.0 stores the header length in 2 bytes; larger headers need 2.0.
  const bool v2 = header.size() + 12 + 1 + kNpyAlignment > 0xFFFF;
  const std::size_t preamble = v2 ? 12 : 10;
  const std::size_t unpadded = preamble + header.size() + 1;
  header.append((kNpyAlignment - unpadded % kNpyAlignment) % kNpyAlignment, ' ');
  header += '\n';

  std::vector<std::byte> out;
  out.reserve(preamble + header.size() + data.nbytes());
  for (const char c : kNpyMagic) out.push_back(static_cast<std::byte>(c));
  out.push_back(std::byte{static_cast<unsigned char>(v2 ? 2 : 1)});
  out.push_back(std::byte{0});
  for (std::size_t i = 0; i < preamble - 8; ++i) out.push_back(static_cast<std::byte>((header.size() >> (8 * i)) & 0xFF));
  for (const char c : header) out.push_back(static_cast<std::byte>(c));
  const std::byte* raw = data.view().raw();
  out.insert(out.end(), raw, raw + data.nbytes());
  return out;
}

void write_npy(const fs::path& path, const Tensor& tensor) { write_file_atomically(path, encode_npy(tensor)); }

}  // namespace asc
