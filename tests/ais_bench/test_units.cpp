// The stage's self-contained pieces against values worked out by hand (Python's repr, numpy's
// percentile, natural order, numpy.savetxt).
#include <doctest/doctest.h>

#include <algorithm>

#include "input_files.hpp"
#include "latency_stats.hpp"
#include "output_files.hpp"
#include "python_number.hpp"

using namespace asc;
using namespace asc::bench;

TEST_CASE("python_float prints what Python's repr(float) prints") {
  CHECK(python_float(1.0) == "1.0");
  CHECK(python_float(0.0) == "0.0");
  CHECK(python_float(2.336) == "2.336");
  CHECK(python_float(0.1 + 0.2) == "0.30000000000000004");
  CHECK(python_float(1e-05) == "1e-05");
  CHECK(python_float(0.0001) == "0.0001");
  CHECK(python_float(0.00012) == "0.00012");
  CHECK(python_float(1.2e-05) == "1.2e-05");
  CHECK(python_float(1234567.0) == "1234567.0");
  CHECK(python_float(1e15) == "1000000000000000.0");
  CHECK(python_float(1e16) == "1e+16");
  CHECK(python_float(1.5e300) == "1.5e+300");
  CHECK(python_float(-42.5) == "-42.5");
  CHECK(python_float(8130.081300813008) == "8130.081300813008");
}

TEST_CASE("latency_stats follows numpy: mean, median, linear percentile(99)") {
  // numpy: a = [4, 1, 3, 2]; median 2.5; percentile(a, 99) = 3 + 0.97 * (4 - 3) = 3.97.
  const LatencyStats s = latency_stats({4, 1, 3, 2});
  CHECK(s.min == 1);
  CHECK(s.max == 4);
  CHECK(s.mean == 2.5);
  CHECK(s.median == 2.5);
  CHECK(s.percentile99 == doctest::Approx(3.97).epsilon(1e-12));
  CHECK(s.count == 4);
  const LatencyStats one = latency_stats({0.75});
  CHECK(one.median == 0.75);
  CHECK(one.percentile99 == 0.75);
  CHECK(latency_stats({}).count == 0);
  CHECK(latency_stats({}).mean == 0);
}

TEST_CASE("input directories list files in natural order, as ais_bench's natural_sort") {
  std::vector<std::string> files = {"d/img10.bin", "d/img2.bin", "d/IMG1.bin", "d/img02b.bin"};
  std::sort(files.begin(), files.end(), natural_less);
  CHECK(files == std::vector<std::string>{"d/IMG1.bin", "d/img2.bin", "d/img02b.bin", "d/img10.bin"});
}

TEST_CASE("TXT outputs are rows of the last dimension, '%f ' per value, as numpy.savetxt writes them") {
  const Tensor floats = Tensor::from_vector<float>({2, 2}, {1.5f, -2.0f, 0.25f, 3.0f});
  CHECK(txt_of(floats) == "1.500000 -2.000000 \n0.250000 3.000000 \n");
  const Tensor ints = Tensor::from_vector<std::int32_t>({3}, {7, -1, 0});
  CHECK(txt_of(ints) == "7 -1 0 \n");
}
