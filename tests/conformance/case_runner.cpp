#include "case_runner.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <exception>

#include "tensor_conversion.hpp"

namespace asc::conformance {
namespace {

// A failure inside one stage of the case, already worded.
struct CaseFailure {
  Outcome outcome;
  std::string reason;
};

Tensor read_tensor_pb(const std::filesystem::path& file) {
  const std::vector<std::byte> bytes = read_file(file);
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw Error(ErrorCode::FileFormatInvalid, file.string() + " is not a serialized onnx.TensorProto");
  return parser_onnx::tensor_from_proto(proto, "tensor '" + proto.name() + "'", file);
}

// input_0.pb, input_1.pb, ... (likewise output_K.pb) until the next index is missing.
std::vector<Tensor> read_numbered_tensors(const std::filesystem::path& dir, const std::string& prefix) {
  std::vector<Tensor> tensors;
  for (std::size_t k = 0;; ++k) {
    const std::filesystem::path file = dir / (prefix + "_" + std::to_string(k) + ".pb");
    if (!std::filesystem::exists(file)) return tensors;
    tensors.push_back(read_tensor_pb(file));
  }
}

// numpy has no bfloat16, so ONNX's test data stores bfloat16 tensors as uint16 bit patterns;
// read them as the bfloat16 the model declares.
Tensor as_declared(const Tensor& tensor, DType declared) {
  if (tensor.dtype() != DType::UInt16 || declared != DType::BFloat16) return tensor;
  const auto offset = static_cast<std::size_t>(tensor.view().raw() - tensor.buffer()->data());
  return Tensor(tensor.buffer(), offset, DType::BFloat16, tensor.shape(), tensor.strides(), tensor.format());
}

std::vector<std::filesystem::path> data_sets(const std::filesystem::path& test_dir) {
  std::vector<std::filesystem::path> sets;
  for (const auto& entry : std::filesystem::directory_iterator(test_dir))
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0)
      sets.push_back(entry.path());
  std::sort(sets.begin(), sets.end());
  return sets;
}

// Runs `step`; an asc::Error becomes a CaseFailure: "Unsupported" for EE2001 when
// `unsupported_counts`, else "Failed" with `stage` in the reason.
template <class Step>
auto guarded(const char* stage, bool unsupported_counts, Step&& step) -> decltype(step()) {
  try {
    return step();
  } catch (const Error& e) {
    if (unsupported_counts && e.code() == ErrorCode::UnsupportedOperator)
      throw CaseFailure{Outcome::Unsupported, e.what()};
    throw CaseFailure{Outcome::Failed, std::string(stage) + ": " + e.what()};
  } catch (const std::exception& e) {
    throw CaseFailure{Outcome::Failed, std::string(stage) + ": " + e.what()};
  }
}

std::string check_data_set(Executable& executable, const std::filesystem::path& set,
                           const Tolerance& tolerance) {
  const std::string where = set.filename().string() + ": ";
  const std::vector<Tensor> inputs =
      guarded("read inputs", false, [&] { return read_numbered_tensors(set, "input"); });
  const std::vector<Tensor> expected =
      guarded("read outputs", false, [&] { return read_numbered_tensors(set, "output"); });
  const std::vector<ValueInfo> input_infos = executable.input_infos();
  const std::vector<ValueInfo> output_infos = executable.output_infos();
  if (inputs.size() != input_infos.size())
    return where + std::to_string(inputs.size()) + " input files for " + std::to_string(input_infos.size()) +
           " graph inputs";
  if (expected.size() != output_infos.size())
    return where + std::to_string(expected.size()) + " output files for " +
           std::to_string(output_infos.size()) + " graph outputs";

  TensorMap feeds;
  for (std::size_t k = 0; k < inputs.size(); ++k)
    feeds[input_infos[k].name] = as_declared(inputs[k], input_infos[k].dtype);
  const TensorMap actual = guarded("execute", false, [&] { return executable.execute(feeds, RunOptions{}); });
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const auto found = actual.find(output_infos[k].name);
    const std::string difference =
        compare_tensors(as_declared(expected[k], output_infos[k].dtype),
                        found == actual.end() ? Tensor() : found->second, tolerance);
    if (!difference.empty())
      return where + "output " + std::to_string(k) + " '" + output_infos[k].name + "': " + difference;
  }
  return "";
}

}  // namespace

CaseResult run_test_case(const TestCase& test, const Registry& registry, const Tolerance& tolerance) {
  const Parser* parser = registry.parser("onnx");
  const Backend* backend = registry.backend("reference");
  if (parser == nullptr || backend == nullptr)
    return {Outcome::Failed, "the onnx parser or the reference backend is not loaded"};
  try {
    const Graph graph =
        guarded("parse", true, [&] { return parser->parse(test.dir / "model.onnx", ParseOptions{}); });
    const std::unique_ptr<Executable> executable =
        guarded("compile", true, [&] { return backend->compile(graph, registry.ops(), BackendOptions{}); });
    const std::vector<std::filesystem::path> sets = data_sets(test.dir);
    if (sets.empty()) return {Outcome::Failed, "no test_data_set_N folder"};
    for (const std::filesystem::path& set : sets) {
      std::string failure = check_data_set(*executable, set, tolerance);
      if (!failure.empty()) return {Outcome::Failed, std::move(failure)};
    }
    return {Outcome::Passed, ""};
  } catch (const CaseFailure& failure) {
    return {failure.outcome, failure.reason};
  }
}

}  // namespace asc::conformance
