#include <doctest/doctest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "asc/sdk/error.hpp"
#include "asc/sdk/io.hpp"
#include "temp_dir.hpp"

using asc::DType;
using asc::Tensor;

namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
  const auto* p = reinterpret_cast<const std::byte*>(text.data());
  return {p, p + text.size()};
}

std::string text_of(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

asc::ErrorCode decode_error(const std::vector<std::byte>& bytes, std::string* message = nullptr) {
  try {
    asc::decode_npy(bytes, "bad.npy");
  } catch (const asc::Error& error) {
    if (message != nullptr) *message = error.message();
    return error.code();
  }
  FAIL("decode_npy accepted malformed input");
  return asc::ErrorCode::Internal;
}

// A hand-built .npy 1.0 file: magic, version, header length, header, data.
std::vector<std::byte> npy_v1(const std::string& header, std::string_view data) {
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size() & 0xFF);
  file += static_cast<char>(header.size() >> 8);
  file += header;
  file += data;
  return bytes_of(file);
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  return a.nbytes() == b.nbytes() && std::memcmp(a.view().raw(), b.view().raw(), a.nbytes()) == 0;
}

}  // namespace

TEST_CASE("encode_npy writes numpy's v1.0 layout") {
  const Tensor t = Tensor::from_vector<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const std::vector<std::byte> file = asc::encode_npy(t);
  const std::string text = text_of(file);
  CHECK(text.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header_length = static_cast<unsigned char>(text[8]) | (static_cast<unsigned char>(text[9]) << 8);
  CHECK((10 + header_length) % 64 == 0);
  const std::string header = text.substr(10, header_length);
  CHECK(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0) == 0);
  CHECK(header.back() == '\n');
  CHECK(file.size() == 10 + header_length + 24);
  float first;
  std::memcpy(&first, file.data() + 10 + header_length, 4);
  CHECK(first == 1.0f);

  CHECK(text_of(asc::encode_npy(Tensor::from_vector<std::int8_t>({3}, {1, 2, 3}))).find("'shape': (3,)") !=
        std::string::npos);
  CHECK(text_of(asc::encode_npy(Tensor::scalar<double>(2.5))).find("'descr': '<f8', 'fortran_order': False, 'shape': ()") !=
        std::string::npos);
}

TEST_CASE("npy round trip for every dtype") {
  const std::vector<DType> all{DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int8,
                               DType::UInt8,   DType::Int16,   DType::UInt16,   DType::Int32,   DType::UInt32,
                               DType::Int64,   DType::UInt64,  DType::Bool};
  asc::test::TempDir dir;
  for (const DType dtype : all) {
    CAPTURE(asc::dtype_name(dtype));
    const Tensor original = Tensor::from_vector<double>({2, 3}, {0, 1, 2, 3, 4, 5}).cast(dtype);
    const std::filesystem::path path = dir / (std::string(asc::dtype_name(dtype)) + ".npy");
    asc::write_npy(path, original);
    const Tensor loaded = asc::read_npy(path);
    CHECK(loaded.dtype() == dtype);
    CHECK(loaded.shape() == asc::Shape{2, 3});
    CHECK(same_bytes(loaded, original));
  }
  for (const asc::Shape& shape : {asc::Shape{}, asc::Shape{4}, asc::Shape{0, 3}, asc::Shape{1, 2, 1, 2}}) {
    CAPTURE(asc::shape_to_string(shape));
    const Tensor original(DType::Float32, shape);
    const Tensor loaded = asc::decode_npy(asc::encode_npy(original), "memory");
    CHECK(loaded.shape() == shape);
  }
}

TEST_CASE("npy: strided tensors are written in row-major order") {
  const Tensor base = Tensor::from_vector<std::int32_t>({2, 3}, {0, 1, 2, 3, 4, 5});
  const Tensor transposed(base.buffer(), 0, DType::Int32, {3, 2}, {1, 3});
  const Tensor loaded = asc::decode_npy(asc::encode_npy(transposed), "memory");
  CHECK(loaded.to_int64s() == std::vector<std::int64_t>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("npy: Fortran order, big-endian data, bool normalisation, v2 headers") {
  // Column-major 2x3 holding [[0,1,2],[3,4,5]] is stored 0,3,1,4,2,5.
  const std::string fortran_data("\x00\x03\x01\x04\x02\x05", 6);
  const Tensor f = asc::decode_npy(npy_v1("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }\n", fortran_data), "f");
  CHECK(f.to_int64s() == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5});

  const Tensor be = asc::decode_npy(
      npy_v1("{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }\n", std::string("\x01\x02\xff\xfe", 4)), "be");
  CHECK(be.to_int64s() == std::vector<std::int64_t>{0x0102, -2});

  const Tensor b = asc::decode_npy(
      npy_v1("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n", std::string("\x00\x01\x07", 3)), "b");
  CHECK(b.to_int64s() == std::vector<std::int64_t>{0, 1, 1});
  CHECK(reinterpret_cast<const unsigned char*>(b.view().raw())[2] == 1);

  const std::string header = "{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }\n";
  std::string v2 = std::string("\x93NUMPY\x02\x00", 8);
  v2 += static_cast<char>(header.size());
  v2 += std::string("\x00\x00\x00", 3);
  v2 += header + std::string("\x34\x12", 2);
  CHECK(asc::decode_npy(bytes_of(v2), "v2").to_int64s() == std::vector<std::int64_t>{0x1234});
}

TEST_CASE("npy: truncated and malformed files are EE4004 errors") {
  const std::vector<std::byte> good = asc::encode_npy(Tensor::from_vector<float>({2, 3}, {1, 2, 3, 4, 5, 6}));

  std::string message;
  std::vector<std::byte> short_data(good.begin(), good.end() - 1);
  CHECK(decode_error(short_data, &message) == asc::ErrorCode::FileFormatInvalid);
  CHECK(message.find("bad.npy") != std::string::npos);
  CHECK(message.find("truncated") != std::string::npos);

  std::vector<std::byte> short_header(good.begin(), good.begin() + 30);
  CHECK(decode_error(short_header, &message) == asc::ErrorCode::FileFormatInvalid);
  CHECK(message.find("truncated") != std::string::npos);

  CHECK(decode_error(std::vector<std::byte>(good.begin(), good.begin() + 5)) == asc::ErrorCode::FileFormatInvalid);
  CHECK(decode_error(bytes_of("PK\x03\x04 this is a zip file")) == asc::ErrorCode::FileFormatInvalid);
  CHECK(decode_error(npy_v1("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }\n", std::string(8, '\0'))) ==
        asc::ErrorCode::FileFormatInvalid);
  CHECK(decode_error(npy_v1("{'descr': '<f4', 'shape': (1,), }\n", std::string(4, '\0'))) ==
        asc::ErrorCode::FileFormatInvalid);
  CHECK(decode_error(npy_v1("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }\n", std::string(4, '\0'))) ==
        asc::ErrorCode::FileFormatInvalid);
  CHECK(decode_error(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }\n", std::string(4, '\0'))) ==
        asc::ErrorCode::FileFormatInvalid);
  CHECK(decode_error(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }\n",
                            std::string(4, '\0'))) == asc::ErrorCode::FileFormatInvalid);
}

TEST_CASE("read_file reports missing files and directories") {
  asc::test::TempDir dir;
  try {
    asc::read_file(dir / "absent.bin");
    FAIL("expected EE4001");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::FileNotFound);
    CHECK(error.message().find("absent.bin") != std::string::npos);
  }
  CHECK_THROWS_AS(asc::read_file(dir.path()), asc::Error);
  CHECK_THROWS_AS(asc::read_npy(dir / "absent.npy"), asc::Error);
}

TEST_CASE("write_file_atomically replaces the file and leaves no temporaries") {
  asc::test::TempDir dir;
  const auto path = dir / "out.txt";
  asc::write_text_atomically(path, "first");
  asc::write_text_atomically(path, "second version");
  CHECK(text_of(asc::read_file(path)) == "second version");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 1);
}

TEST_CASE("a failed atomic write is EE4003 naming the path") {
  asc::test::TempDir dir;
  const auto path = dir / "missing_dir" / "out.bin";
  try {
    asc::write_text_atomically(path, "data");
    FAIL("expected EE4003");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::FileWriteFailed);
    CHECK(error.message().find(path.string()) != std::string::npos);
  }
  CHECK(std::filesystem::is_empty(dir.path()));

  // The temporary is written, then the rename onto a non-empty directory fails: it is removed.
  const auto occupied = dir / "occupied";
  std::filesystem::create_directories(occupied / "child");
  CHECK_THROWS_AS(asc::write_text_atomically(occupied, "data"), asc::Error);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 1);
}

TEST_CASE("an atomic write through a symlink replaces the link's target and keeps the link") {
  asc::test::TempDir dir;
  asc::write_text_atomically(dir / "real.txt", "old");
  std::filesystem::create_symlink("real.txt", dir / "link.txt");      // relative to the link's directory
  std::filesystem::create_symlink(dir / "link.txt", dir / "chain.txt");  // a link to the link
  asc::write_text_atomically(dir / "chain.txt", "new");
  CHECK(std::filesystem::is_symlink(dir / "chain.txt"));
  CHECK(std::filesystem::is_symlink(dir / "link.txt"));
  CHECK(text_of(asc::read_file(dir / "real.txt")) == "new");

  // A dangling link: the write creates its target.
  std::filesystem::create_symlink("later.txt", dir / "dangling.txt");
  asc::write_text_atomically(dir / "dangling.txt", "created");
  CHECK(std::filesystem::is_symlink(dir / "dangling.txt"));
  CHECK(text_of(asc::read_file(dir / "later.txt")) == "created");
}

TEST_CASE("an atomic write to a link to a device writes to the device and keeps the link") {
  asc::test::TempDir dir;
  std::filesystem::create_symlink("/dev/null", dir / "sink.txt");
  asc::write_text_atomically(dir / "sink.txt", "discarded");
  CHECK(std::filesystem::is_symlink(dir / "sink.txt"));
  CHECK(std::filesystem::is_character_file("/dev/null"));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 1);
}

TEST_CASE("a write removes the temporary files that dead writers left in its directory") {
  asc::test::TempDir dir;
  // No process can have pid 9999999 (Linux caps pids at 2^22); this process's own are in use.
  // Made without the SDK: its first write into a directory is the one that sweeps it.
  const std::string own = "out.txt.tmp." + std::to_string(::getpid()) + ".7";
  for (const std::string name : {"out.txt.tmp.9999999.42", own.c_str(), "notes.tmp.txt"})
    std::ofstream(dir / name) << "left";
  asc::write_text_atomically(dir / "out.txt", "result");
  CHECK_FALSE(std::filesystem::exists(dir / "out.txt.tmp.9999999.42"));
  CHECK(std::filesystem::exists(dir / own));
  CHECK(std::filesystem::exists(dir / "notes.tmp.txt"));
}

TEST_CASE("same_file and refuse_output_over_inputs compare files, not spellings") {
  asc::test::TempDir dir;
  asc::write_text_atomically(dir / "input.onnx", "model");
  asc::write_text_atomically(dir / "other.onnx", "model");
  std::filesystem::create_symlink("input.onnx", dir / "link.om");
  std::filesystem::create_hard_link(dir / "input.onnx", dir / "hard.om");
  CHECK(asc::same_file(dir / "link.om", dir / "input.onnx"));
  CHECK(asc::same_file(dir / "hard.om", dir / "input.onnx"));
  CHECK(asc::same_file(dir.path() / "." / "input.onnx", dir / "input.onnx"));
  CHECK_FALSE(asc::same_file(dir / "other.onnx", dir / "input.onnx"));  // same bytes, another file
  CHECK_FALSE(asc::same_file(dir / "absent.om", dir / "input.onnx"));

  const std::filesystem::path inputs[] = {dir / "other.onnx", dir / "input.onnx"};
  try {
    asc::refuse_output_over_inputs(dir / "hard.om", inputs, "--output");
    FAIL("expected EE4003");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::FileWriteFailed);
    CHECK(error.message().find("--output '" + (dir / "hard.om").string() + "'") != std::string::npos);
    CHECK(error.message().find("it is the input '" + (dir / "input.onnx").string() + "'") != std::string::npos);
  }
  CHECK_NOTHROW(asc::refuse_output_over_inputs(dir / "new.om", inputs, "--output"));
}

TEST_CASE("an .npy with a 0 dimension beside huge ones decodes to an empty tensor (found by fuzz_npy)") {
  // The strides of (600, 0, 2e17, 0, 8, 3) overflowed 64 bits, in C and Fortran order, and so did
  // the contiguity check on (4, 0, 2e12, 1e7): undefined behaviour.
  struct Case {
    std::string order, text;
    asc::Shape shape;
  };
  const asc::Shape wide{600, 0, 200000000000000000, 0, 8, 3};
  for (const Case& c : {Case{"False", "(600, 0, 200000000000000000, 0, 8, 3)", wide},
                        Case{"True", "(600, 0, 200000000000000000, 0, 8, 3)", wide},
                        Case{"False", "(4, 0, 2000000000000, 10000000)", {4, 0, 2000000000000, 10000000}}}) {
    INFO("fortran_order " << c.order << ", shape " << c.text);
    const std::string header = "{'descr': '<f2', 'fortran_order': " + c.order + ", 'shape': " + c.text + ", }";
    const std::size_t length = header.size() + 1;               // with the closing '\n'
    const std::size_t padded = (10 + length + 63) / 64 * 64 - 10;  // the data starts 64-byte aligned
    std::string file("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(padded & 0xff);
    file += static_cast<char>(padded >> 8);
    file += header + std::string(padded - length, ' ') + "\n";
    const Tensor tensor = asc::decode_npy(bytes_of(file), "fuzzed.npy");
    CHECK(tensor.numel() == 0);
    CHECK(tensor.shape() == c.shape);
  }
}
