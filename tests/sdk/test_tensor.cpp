#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "asc/sdk/error.hpp"
#include "asc/sdk/half.hpp"
#include "asc/sdk/tensor.hpp"

using asc::DType;
using asc::Tensor;

namespace {

// The transpose of a contiguous 2x3 tensor holding 0..5: a 3x2 view with strides (1, 3).
Tensor transposed_2x3(DType dtype) {
  const Tensor base = Tensor::from_vector<double>({2, 3}, {0, 1, 2, 3, 4, 5}).cast(dtype);
  return Tensor(base.buffer(), 0, dtype, {3, 2}, {1, 3});
}

}  // namespace

TEST_CASE("new tensors are zero-filled and 64-byte aligned") {
  const Tensor t(DType::Float32, {3, 5});
  CHECK(reinterpret_cast<std::uintptr_t>(t.view().raw()) % 64 == 0);
  CHECK(t.nbytes() == 60);
  for (const float v : t.span<float>()) CHECK(v == 0.0f);
  CHECK(t.strides() == asc::Shape{5, 1});
  CHECK(t.is_contiguous());
  const Tensor empty(DType::Int8, {0, 4});
  CHECK(empty.numel() == 0);
  CHECK(empty.view().raw() != nullptr);
}

TEST_CASE("typed access checks the dtype") {
  const Tensor t(DType::Int32, {2});
  CHECK_THROWS_AS(t.data<float>(), asc::Error);
  CHECK_NOTHROW(t.data<std::int32_t>());
}

TEST_CASE("shape helpers") {
  CHECK(asc::num_elements({}) == 1);
  CHECK(asc::num_elements({2, 0, 3}) == 0);
  CHECK(asc::contiguous_strides({2, 3, 4}) == asc::Shape{12, 4, 1});
  CHECK(asc::shape_to_string({1, 3, 224, 224}) == "[1,3,224,224]");
  CHECK(asc::shape_to_string({}) == "[]");
  CHECK(asc::format_name(asc::Format::NC1HWC0) == "NC1HWC0");
  CHECK(asc::parse_format("fractal_nz") == asc::Format::FRACTAL_NZ);
  CHECK_FALSE(asc::parse_format("NDHWC").has_value());
  CHECK(asc::parse_dtype("FP16") == DType::Float16);
  CHECK(asc::parse_dtype("half") == DType::Float16);
  CHECK(asc::parse_dtype("float32") == DType::Float32);
  CHECK(asc::parse_dtype("int") == DType::Int32);
  CHECK_FALSE(asc::parse_dtype("complex64").has_value());
  CHECK(asc::dtype_size(DType::BFloat16) == 2);
  CHECK(asc::is_integral(DType::UInt8));
  CHECK_FALSE(asc::is_integral(DType::Bool));
  CHECK_FALSE(asc::is_signed(DType::UInt32));
}

TEST_CASE("to_doubles and to_int64s follow strides in row-major order") {
  const Tensor t = transposed_2x3(DType::Int16);
  CHECK_FALSE(t.is_contiguous());
  CHECK(t.to_doubles() == std::vector<double>{0, 3, 1, 4, 2, 5});
  CHECK(t.to_int64s() == std::vector<std::int64_t>{0, 3, 1, 4, 2, 5});
  const Tensor c = t.contiguous();
  CHECK(c.is_contiguous());
  CHECK(c.buffer() != t.buffer());
  CHECK(c.span<std::int16_t>()[1] == 3);
  const Tensor already = c.contiguous();
  CHECK(already.buffer() == c.buffer());
}

TEST_CASE("contiguous copies strided views element by element in row-major order") {
  // A 2x3x4x5 tensor holding 0..119, read through views whose copies are worked out here by
  // index arithmetic: NCHW as NHWC (rows of C = 3 elements, the stem of a CNN), every other
  // element of the last axis, and a row broadcast down a new axis (stride 0).
  std::vector<double> values(120);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
  for (DType dtype : {DType::Int8, DType::Float16, DType::Float32, DType::Float64}) {
    CAPTURE(asc::dtype_name(dtype));
    const Tensor base = Tensor::from_vector<double>({2, 3, 4, 5}, values).cast(dtype);
    const Tensor nhwc(base.buffer(), 0, dtype, {2, 4, 5, 3}, {60, 5, 1, 20});
    std::vector<double> expected;
    for (int n = 0; n < 2; ++n)
      for (int h = 0; h < 4; ++h)
        for (int w = 0; w < 5; ++w)
          for (int c = 0; c < 3; ++c) expected.push_back(n * 60 + c * 20 + h * 5 + w);
    CHECK(nhwc.contiguous().to_doubles() == expected);

    const Tensor every_other(base.buffer(), 0, dtype, {2, 3, 4, 3}, {60, 20, 5, 2});
    expected.clear();
    for (int n = 0; n < 2; ++n)
      for (int c = 0; c < 3; ++c)
        for (int h = 0; h < 4; ++h)
          for (int w = 0; w < 5; w += 2) expected.push_back(n * 60 + c * 20 + h * 5 + w);
    CHECK(every_other.contiguous().to_doubles() == expected);

    const Tensor broadcast(base.buffer(), 5 * asc::dtype_size(dtype), dtype, {3, 5}, {0, 1});
    expected.clear();
    for (int r = 0; r < 3; ++r)
      for (int w = 0; w < 5; ++w) expected.push_back(5 + w);
    CHECK(broadcast.contiguous().to_doubles() == expected);

    const Tensor column(base.buffer(), 0, dtype, {24}, {5});  // one element per row of 5
    expected.clear();
    for (int i = 0; i < 24; ++i) expected.push_back(i * 5);
    CHECK(column.contiguous().to_doubles() == expected);
  }
}

TEST_CASE("views check that they fit their buffer") {
  const auto buffer = asc::Buffer::allocate(16);
  CHECK_NOTHROW(Tensor(buffer, 8, DType::Float32, {2}, {1}));
  CHECK_THROWS_AS(Tensor(buffer, 12, DType::Float32, {2}, {1}), asc::Error);
  CHECK_THROWS_AS(Tensor(buffer, 0, DType::Float32, {2, 2}, {3, 1}), asc::Error);
}

TEST_CASE("reshaped shares the buffer and checks element counts") {
  const Tensor t = Tensor::from_vector<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor r = t.reshaped({3, 2});
  CHECK(r.buffer() == t.buffer());
  CHECK(r.shape() == asc::Shape{3, 2});
  CHECK(r.strides() == asc::Shape{2, 1});
  CHECK_THROWS_AS(t.reshaped({4}), asc::Error);
  CHECK_THROWS_AS(transposed_2x3(DType::Float32).reshaped({6}), asc::Error);
}

TEST_CASE("clone is deep, copies share, with_format only retags") {
  const Tensor t = Tensor::from_vector<std::int32_t>({2}, {7, 8});
  const Tensor shared = t;
  const Tensor deep = t.clone();
  t.data<std::int32_t>()[0] = 42;
  CHECK(shared.data<std::int32_t>()[0] == 42);
  CHECK(deep.data<std::int32_t>()[0] == 7);
  const Tensor nchw = t.with_format(asc::Format::NCHW);
  CHECK(nchw.format() == asc::Format::NCHW);
  CHECK(nchw.buffer() == t.buffer());
}

TEST_CASE("cast: float to integer truncates toward zero") {
  const Tensor f = Tensor::from_vector<float>({5}, {1.9f, -1.9f, 2.5f, -0.5f, 100.99f});
  CHECK(f.cast(DType::Int32).to_int64s() == std::vector<std::int64_t>{1, -1, 2, 0, 100});
  CHECK(f.cast(DType::Int8).to_int64s() == std::vector<std::int64_t>{1, -1, 2, 0, 100});
  const Tensor d = Tensor::from_vector<double>({2}, {3.99999, -7.5});
  CHECK(d.cast(DType::Int64).to_int64s() == std::vector<std::int64_t>{3, -7});
}

TEST_CASE("cast: to bool is != 0, NaN included") {
  const Tensor f = Tensor::from_vector<float>(
      {5}, {0.0f, -0.0f, 0.5f, -3.0f, std::numeric_limits<float>::quiet_NaN()});
  const Tensor b = f.cast(DType::Bool);
  CHECK(b.dtype() == DType::Bool);
  CHECK(b.to_int64s() == std::vector<std::int64_t>{0, 0, 1, 1, 1});
  const Tensor i = Tensor::from_vector<std::int32_t>({3}, {0, -2, 9});
  CHECK(i.cast(DType::Bool).to_int64s() == std::vector<std::int64_t>{0, 1, 1});
  const Tensor back = Tensor::from_vector<bool>({2}, {true, false}).cast(DType::Float32);
  CHECK(back.to_doubles() == std::vector<double>{1.0, 0.0});
}

TEST_CASE("cast: integers wrap like numpy") {
  // np.array([300, -1]).astype(np.uint8) == [44, 255]
  const Tensor i = Tensor::from_vector<std::int32_t>({2}, {300, -1});
  CHECK(i.cast(DType::UInt8).to_int64s() == std::vector<std::int64_t>{44, 255});
  CHECK(i.cast(DType::Int8).to_int64s() == std::vector<std::int64_t>{44, -1});
}

TEST_CASE("cast: 16-bit floats round to nearest even") {
  const Tensor f = Tensor::from_vector<float>({3}, {0.1f, 1.0f, 65520.0f});
  const Tensor h = f.cast(DType::Float16);
  const auto* bits = reinterpret_cast<const std::uint16_t*>(h.view().raw());
  CHECK(bits[0] == 0x2E66);
  CHECK(bits[1] == 0x3C00);
  CHECK(bits[2] == 0x7C00);
  const Tensor bf = f.cast(DType::BFloat16);
  CHECK(reinterpret_cast<const std::uint16_t*>(bf.view().raw())[0] == 0x3DCD);
  CHECK(h.cast(DType::Float64).to_doubles()[0] == 0.0999755859375);
  CHECK(h.cast(DType::Int32).to_int64s() == std::vector<std::int64_t>{0, 1, std::numeric_limits<std::int32_t>::max()});
}

TEST_CASE("cast of a broadcast view too large to hold is EE3001, not an overflowed allocation") {
  // 2^61 elements reading one float (zero strides) fit in int64, but 2^61 doubles are 2^64 bytes.
  const auto one_float = asc::Buffer::allocate(sizeof(float));
  const Tensor view(one_float, 0, DType::Float32, asc::Shape{std::int64_t{1} << 61}, asc::Shape{0});
  try {
    (void)view.cast(DType::Float64);
    FAIL("the cast did not throw");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::MemoryAllocationFailed);
  }
}

TEST_CASE("cast handles every dtype pair and strided sources") {
  const std::vector<DType> all{DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int8,
                               DType::UInt8,   DType::Int16,   DType::UInt16,   DType::Int32,   DType::UInt32,
                               DType::Int64,   DType::UInt64,  DType::Bool};
  for (const DType from : all) {
    for (const DType to : all) {
      CAPTURE(asc::dtype_name(from));
      CAPTURE(asc::dtype_name(to));
      const Tensor source = transposed_2x3(from);
      const Tensor result = source.cast(to);
      CHECK(result.dtype() == to);
      CHECK(result.shape() == asc::Shape{3, 2});
      const std::vector<double> expected = (from == DType::Bool || to == DType::Bool)
                                               ? std::vector<double>{0, 1, 1, 1, 1, 1}
                                               : std::vector<double>{0, 3, 1, 4, 2, 5};
      CHECK(result.to_doubles() == expected);
    }
  }
}
