// The seed's Conv2d example end to end: a 7x7 stride-2 convolution of a 1x3x224x224 input to
// 1x64x112x112, its float64 golden written as float32 golden_conv2d.bin, the "NPU" output as
// that golden rounded to float16 (Conv2d_0_1234567890.bin), and the seed's exact command.
//
// The data keeps every output within [0.5, 2.5): there float16 rounding moves a value by at most
// 2^-10 (< 1e-3) and by at most 2^-11 relative (< 1e-2), so the seed's tolerances must pass.
#include <doctest/doctest.h>

#include <algorithm>
#include <asc/sdk/half.hpp>
#include <asc/sdk/io.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "support.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

namespace {

constexpr int kIn = 3, kOut = 64, kKernel = 7, kStride = 2, kPad = 3, kSize = 224, kOutSize = 112;

// Naive direct convolution in float64 (the CPU golden of the seed).
std::vector<float> conv2d_golden() {
  std::mt19937 random(2024);
  std::uniform_real_distribution<double> input_value(0.0, 1.0),
      weight_value(0.0, 2.0 / (kIn * kKernel * kKernel));
  std::vector<double> input(kIn * kSize * kSize), weight(kOut * kIn * kKernel * kKernel);
  for (double& v : input) v = input_value(random);
  for (double& v : weight) v = weight_value(random);
  const double bias = 0.5;
  std::vector<float> output(kOut * kOutSize * kOutSize);
  for (int o = 0; o < kOut; ++o)
    for (int y = 0; y < kOutSize; ++y)
      for (int x = 0; x < kOutSize; ++x) {
        double sum = bias;
        for (int c = 0; c < kIn; ++c)
          for (int ky = 0; ky < kKernel; ++ky) {
            const int iy = y * kStride - kPad + ky;
            if (iy < 0 || iy >= kSize) continue;
            for (int kx = 0; kx < kKernel; ++kx) {
              const int ix = x * kStride - kPad + kx;
              if (ix < 0 || ix >= kSize) continue;
              sum += input[(c * kSize + iy) * kSize + ix] *
                     weight[((o * kIn + c) * kKernel + ky) * kKernel + kx];
            }
          }
        output[(o * kOutSize + y) * kOutSize + x] = static_cast<float>(sum);
      }
  return output;
}

}  // namespace

TEST_CASE("the seed's Conv2d example passes with the seed's command") {
  TempDir dir;
  const std::vector<float> golden = conv2d_golden();
  REQUIRE(*std::min_element(golden.begin(), golden.end()) >= 0.5f);
  REQUIRE(*std::max_element(golden.begin(), golden.end()) < 2.5f);
  std::vector<float> npu(golden.size());
  round_to_f16(golden, npu);
  write_bytes(dir / "golden_conv2d.bin", golden.data(), golden.size() * sizeof(float));
  write_bytes(dir / "Conv2d_0_1234567890.bin", npu.data(), npu.size() * sizeof(float));

  // Verbatim from the seed, run where the files are.
  const auto result = run_command("cd '" + dir.path().string() + "' && " + ASC_OP_VALIDATE +
                                      " --golden=golden_conv2d.bin --actual=Conv2d_0_1234567890.bin"
                                      " --op_name=Conv2d --abs_tolerance=1e-3 --rel_tolerance=1e-2",
                                  dir / "seed.log");
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK(result.output.find("op_validate: Conv2d") != std::string::npos);
  CHECK(result.output.find("Result: PASS") != std::string::npos);

  // With the shape and a JSON report: the float16 rounding bounds hold element by element.
  const auto shaped = op_validate("--golden='" + (dir / "golden_conv2d.bin").string() + "' --actual='" +
                                      (dir / "Conv2d_0_1234567890.bin").string() +
                                      "' --op_name=Conv2d --shape 1,64,112,112 --output='" +
                                      (dir / "report.json").string() + "'",
                                  dir / "shaped.log");
  CHECK(shaped.exit_code == 0);
  const auto report = nlohmann::json::parse(read_text(dir / "report.json"));
  const auto& comparison = report["rows"][0]["comparison"];
  CHECK(comparison["passed"] == true);
  CHECK(comparison["elements"] == kOut * kOutSize * kOutSize);
  CHECK(comparison["metrics"]["MaxAbsoluteError"].get<double>() <= 1.0 / 1024);
  CHECK(comparison["metrics"]["MaxRelativeError"].get<double>() <= 1.0 / 2048);
  CHECK(comparison["metrics"]["CosineSimilarity"].get<double>() > 0.999999);
  CHECK(report["rows"][0]["shape"] == std::vector<int>{1, kOut, kOutSize, kOutSize});
}

TEST_CASE("a Conv2d with one channel off by 1% fails, pointing at that channel") {
  TempDir dir;
  std::vector<float> golden = conv2d_golden(), npu(golden.size());
  round_to_f16(golden, npu);
  const std::size_t plane = kOutSize * kOutSize;
  for (std::size_t i = 17 * plane; i < 18 * plane; ++i) npu[i] = golden[i] * 1.02f;
  write_bytes(dir / "golden.bin", golden.data(), golden.size() * sizeof(float));
  write_bytes(dir / "npu.bin", npu.data(), npu.size() * sizeof(float));
  const auto result = op_validate("--golden='" + (dir / "golden.bin").string() + "' --actual='" +
                                      (dir / "npu.bin").string() + "' --op_name=Conv2d --shape=1,64,112,112",
                                  dir / "log");
  INFO(result.output);
  CHECK(result.exit_code == 1);
  CHECK(result.output.find("100% of failures in channel 17 (of 64)") != std::string::npos);
  CHECK(result.output.find("first failing element at [0,17,0,0]") != std::string::npos);
}

// The seed's example with both sides from this toolchain: a one-Conv model named Conv2d (the
// seed's shapes and value ranges), its golden from the reference backend's dump, its actual from
// the NPU simulator's seed-named dump (Conv2d.0.<timestamp>.bin, float32 holding fp16 values),
// compared with the seed's command. fp16 operands and result: the error is fp16 rounding, a
// relative 2^-11 for the result plus far less from the operands (K = 147 products in fp32).
TEST_CASE("the seed's Conv2d example on the NPU simulator's dump against the reference golden") {
  TempDir dir;
  const std::string d = dir.path().string();
  const auto model = run_command(
      std::string(ASC_TEST_PYTHON) +
          " -c \"import numpy as np, onnx; from onnx import helper as h, numpy_helper as nh, TensorProto as T; "
          "r = np.random.RandomState(2024); "
          "w = r.uniform(0, 2.0 / 147, (64, 3, 7, 7)).astype(np.float32); "
          "g = h.make_graph([h.make_node('Conv', ['x', 'w'], ['y'], name='Conv2d', kernel_shape=[7, 7], "
          "strides=[2, 2], pads=[3, 3, 3, 3])], 'conv2d', [h.make_tensor_value_info('x', T.FLOAT, [1, 3, 224, 224])], "
          "[h.make_tensor_value_info('y', T.FLOAT, [1, 64, 112, 112])], initializer=[nh.from_array(w, 'w')]); "
          "onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 17)]), '" + d + "/conv2d.onnx'); "
          "np.save('" + d + "/x.npy', r.uniform(0, 1, (1, 3, 224, 224)).astype(np.float32))\"",
      dir / "make_model.log");
  REQUIRE(model.exit_code == 0);
  const std::string pipeline =
      "name: conv2d_golden_and_npu\n"
      "plugins: [parser_onnx, ops_builtin, backend_reference, backend_npusim]\n"
      "stages:\n"
      "  - stage: onnx.load\n"
      "    with: {model: '" + d + "/conv2d.onnx'}\n"
      "  - stage: reference.run\n"
      "    with: {inputs: ['" + d + "/x.npy'], output_dir: '" + d + "/golden_out', dump_dir: '" + d + "/golden'}\n"
      "  - stage: npusim.run\n"
      "    with: {inputs: ['" + d + "/x.npy'], output_dir: '" + d + "/npu_out', dump_dir: '" + d + "/npu',\n"
      "           soc_version: Ascend310P3, precision_mode: force_fp16}\n";
  write_text_atomically(dir / "pipeline.yaml", pipeline);
  const auto run = run_command(std::string(ASC_EXECUTABLE) + " run '" + (dir / "pipeline.yaml").string() + "'",
                               dir / "asc.log");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::filesystem::path actual;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "npu"))
    if (entry.path().filename().string().rfind("Conv2d.0.", 0) == 0 && entry.path().extension() == ".bin")
      actual = entry.path();
  REQUIRE_MESSAGE(!actual.empty(), "no Conv2d.0.<timestamp>.bin in the NPU dump");

  const auto result = run_command(std::string(ASC_OP_VALIDATE) + " --golden='" + d + "/golden/Conv2d.0.npy' --actual='" +
                                      actual.string() +
                                      "' --op_name=Conv2d --abs_tolerance=1e-3 --rel_tolerance=1e-2"
                                      " --shape=1,64,112,112 --output='" + d + "/report.json'",
                                  dir / "op_validate.log");
  INFO(result.output);
  CHECK((result.exit_code == 0 || result.exit_code == 1));  // compared: pass or precision failure, not bad input
  const auto report = nlohmann::json::parse(read_text(dir / "report.json"));
  const auto& comparison = report["rows"][0]["comparison"];
  const auto& metrics = comparison["metrics"];
  CHECK(comparison["elements"] == 64 * 112 * 112);
  CHECK(metrics["CosineSimilarity"].get<double>() >= 0.99999);
  CHECK(metrics["MaxRelativeError"].get<double>() < 2e-3);
  CHECK(metrics["MaxRelativeError"].get<double>() > 0);  // the NPU's fp16 result is not the fp32 golden
}
