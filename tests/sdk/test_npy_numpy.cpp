// Interoperability with numpy itself: files numpy wrote are read, files we wrote numpy reads.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "asc/sdk/half.hpp"
#include "asc/sdk/io.hpp"
#include "temp_dir.hpp"

namespace {

bool numpy_available() {
  static const bool available =
      std::system(ASC_TEST_PYTHON " -c 'import numpy' >/dev/null 2>&1") == 0;
  return available;
}

// Runs a Python snippet with numpy imported as np and `d` the directory; true on exit code 0.
bool run_python(const asc::test::TempDir& dir, const std::string& body) {
  const std::string script = "import sys, numpy as np\nd = sys.argv[1]\n" + body;
  const auto script_path = dir / "script.py";
  asc::write_text_atomically(script_path, script);
  const std::string command = ASC_TEST_PYTHON " '" + script_path.string() + "' '" + dir.path().string() + "'";
  return std::system(command.c_str()) == 0;
}

}  // namespace

TEST_CASE("reads .npy files written by numpy") {
  if (!numpy_available()) {
    MESSAGE("SKIPPED: " ASC_TEST_PYTHON " has no numpy");
    return;
  }
  asc::test::TempDir dir;
  REQUIRE(run_python(dir, R"(
np.save(d + '/f32.npy', (np.arange(6, dtype='<f4') * 0.5).reshape(2, 3))
np.save(d + '/f16.npy', np.array([1.0, -2.0, 65504.0, 0.1], dtype=np.float16))
np.save(d + '/f64.npy', np.array([[1e300], [-0.25]]))
np.save(d + '/bool.npy', np.array([[True, False], [False, True]]))
np.save(d + '/fortran.npy', np.asfortranarray(np.arange(6, dtype=np.int64).reshape(2, 3)))
np.save(d + '/big_endian.npy', np.array([1, -2, 70000], dtype='>i4'))
np.save(d + '/u64.npy', np.array([2**64 - 1, 0], dtype=np.uint64))
np.save(d + '/scalar.npy', np.int16(-7))
with open(d + '/v2.npy', 'wb') as f:
    np.lib.format.write_array(f, np.array([7, 65535], dtype=np.uint16), version=(2, 0))
with open(d + '/v3.npy', 'wb') as f:
    np.lib.format.write_array(f, np.array([-1, 2], dtype=np.int8), version=(3, 0))
)"));

  const asc::Tensor f32 = asc::read_npy(dir / "f32.npy");
  CHECK(f32.dtype() == asc::DType::Float32);
  CHECK(f32.shape() == asc::Shape{2, 3});
  CHECK(f32.to_doubles() == std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5});

  const asc::Tensor f16 = asc::read_npy(dir / "f16.npy");
  REQUIRE(f16.dtype() == asc::DType::Float16);
  const auto* bits = reinterpret_cast<const std::uint16_t*>(f16.view().raw());
  CHECK(bits[0] == 0x3C00);
  CHECK(bits[1] == 0xC000);
  CHECK(bits[2] == 0x7BFF);
  CHECK(bits[3] == 0x2E66);

  CHECK(asc::read_npy(dir / "f64.npy").to_doubles() == std::vector<double>{1e300, -0.25});

  const asc::Tensor b = asc::read_npy(dir / "bool.npy");
  CHECK(b.dtype() == asc::DType::Bool);
  CHECK(b.to_int64s() == std::vector<std::int64_t>{1, 0, 0, 1});

  const asc::Tensor fortran = asc::read_npy(dir / "fortran.npy");
  CHECK(fortran.shape() == asc::Shape{2, 3});
  CHECK(fortran.to_int64s() == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5});

  CHECK(asc::read_npy(dir / "big_endian.npy").to_int64s() == std::vector<std::int64_t>{1, -2, 70000});

  const asc::Tensor u64 = asc::read_npy(dir / "u64.npy");
  REQUIRE(u64.dtype() == asc::DType::UInt64);
  CHECK(u64.data<std::uint64_t>()[0] == 18446744073709551615ull);

  const asc::Tensor scalar = asc::read_npy(dir / "scalar.npy");
  CHECK(scalar.shape().empty());
  CHECK(scalar.to_int64s() == std::vector<std::int64_t>{-7});

  CHECK(asc::read_npy(dir / "v2.npy").to_int64s() == std::vector<std::int64_t>{7, 65535});
  CHECK(asc::read_npy(dir / "v3.npy").to_int64s() == std::vector<std::int64_t>{-1, 2});
}

TEST_CASE("numpy reads .npy files we write") {
  if (!numpy_available()) {
    MESSAGE("SKIPPED: " ASC_TEST_PYTHON " has no numpy");
    return;
  }
  asc::test::TempDir dir;
  asc::write_npy(dir / "f16.npy", asc::Tensor::from_vector<float>({2, 2}, {1.0f, -2.0f, 65504.0f, 0.1f})
                                      .cast(asc::DType::Float16));
  asc::write_npy(dir / "i32.npy", asc::Tensor::from_vector<std::int32_t>({3}, {-1, 0, 2147483647}));
  asc::write_npy(dir / "bool.npy", asc::Tensor::from_vector<bool>({2}, {true, false}));
  asc::write_npy(dir / "scalar.npy", asc::Tensor::scalar<double>(0.125));
  CHECK(run_python(dir, R"(
a = np.load(d + '/f16.npy')
assert a.dtype == np.float16 and a.shape == (2, 2), (a.dtype, a.shape)
assert a.view(np.uint16).tolist() == [[0x3C00, 0xC000], [0x7BFF, 0x2E66]], a.view(np.uint16)
b = np.load(d + '/i32.npy')
assert b.dtype == np.int32 and b.tolist() == [-1, 0, 2147483647], b
c = np.load(d + '/bool.npy')
assert c.dtype == np.bool_ and c.tolist() == [True, False], c
s = np.load(d + '/scalar.npy')
assert s.shape == () and s.dtype == np.float64 and float(s) == 0.125, s
)"));
}

TEST_CASE("bfloat16 round-trips through numpy as a structured uint16 field named bfloat16") {
  if (!numpy_available()) {
    MESSAGE("SKIPPED: " ASC_TEST_PYTHON " has no numpy");
    return;
  }
  asc::test::TempDir dir;
  // 1.0 = 0x3F80, -2.0 = 0xC000, 3.140625 = 0x4049 (bfloat16 keeps float32's top 16 bits).
  asc::write_npy(dir / "bf16.npy",
                 asc::Tensor::from_vector<float>({3}, {1.0f, -2.0f, 3.140625f}).cast(asc::DType::BFloat16));
  // numpy reads it without ml_dtypes, sees the field name, widens the bits to float32, and writes
  // a file of the same type back (doubled values).
  CHECK(run_python(dir, R"(
a = np.load(d + '/bf16.npy')
assert a.dtype.names == ('bfloat16',) and a.dtype['bfloat16'] == np.dtype('<u2'), a.dtype
assert a['bfloat16'].tolist() == [0x3F80, 0xC000, 0x4049], a['bfloat16']
values = (a['bfloat16'].astype(np.uint32) << 16).view(np.float32)
assert values.tolist() == [1.0, -2.0, 3.140625], values
doubled = ((values * 2).view(np.uint32) >> 16).astype('<u2')
np.save(d + '/back.npy', doubled.view([('bfloat16', '<u2')]))
)"));
  const asc::Tensor back = asc::read_npy(dir / "back.npy");
  REQUIRE(back.dtype() == asc::DType::BFloat16);
  CHECK(back.to_doubles() == std::vector<double>{2.0, -4.0, 6.28125});
}
