#include "asc/sdk/backend/input_check.hpp"

#include <algorithm>
#include "asc/sdk/error.hpp"
#include <cstdint>
#include <map>
#include <string>

namespace asc {
namespace {

std::string input_names(const std::vector<ValueInfo>& declared) {
  std::string names;
  for (const ValueInfo& info : declared) names += (names.empty() ? "" : ", ") + info.name;
  return names.empty() ? "none" : names;
}

[[noreturn]] void mismatch(const ValueInfo& info, const Tensor& tensor, const std::string& what) {
  throw Error(ErrorCode::InputMismatch,
              "input '" + info.name + "': " + what + " (expected " + to_string(info) + ", got " +
                  std::string(dtype_name(tensor.dtype())) + shape_to_string(tensor.shape()) + ")");
}

void check_dims(const ValueInfo& info, const Tensor& tensor, std::map<std::string, std::int64_t>& symbols) {
  const std::vector<Dim>& dims = *info.shape;
  if (dims.size() != tensor.shape().size())
    mismatch(info, tensor,
             "rank " + std::to_string(tensor.rank()) + " instead of " + std::to_string(dims.size()));
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const std::int64_t actual = tensor.shape()[d];
    if (dims[d].is_static() && dims[d].value != actual)
      mismatch(info, tensor, "dimension " + std::to_string(d) + " is " + std::to_string(actual));
    if (dims[d].is_static() || dims[d].symbol.empty()) continue;
    const auto [bound, inserted] = symbols.emplace(dims[d].symbol, actual);
    if (!inserted && bound->second != actual)
      mismatch(info, tensor,
               "dimension '" + dims[d].symbol + "' is " + std::to_string(actual) + " here but " +
                   std::to_string(bound->second) + " in an earlier input");
  }
}

}  // namespace

void check_inputs(const std::vector<ValueInfo>& declared, const TensorMap& provided) {
  for (const auto& entry : provided) {
    const std::string& name = entry.first;
    const bool known =
        std::any_of(declared.begin(), declared.end(), [&](const ValueInfo& i) { return i.name == name; });
    if (!known)
      throw Error(ErrorCode::InputMismatch,
                  "'" + name + "' is not an input of the graph (inputs: " + input_names(declared) + ")");
  }
  std::map<std::string, std::int64_t> symbols;
  for (const ValueInfo& info : declared) {
    const auto found = provided.find(info.name);
    if (found == provided.end())
      throw Error(ErrorCode::InputMissing,
                  "input '" + info.name + "' (" + to_string(info) + ") was not provided");
    const Tensor& tensor = found->second;
    if (!tensor.defined())
      throw Error(ErrorCode::InputMissing, "input '" + info.name + "' is an empty tensor handle");
    if (info.dtype != DType::Undefined && tensor.dtype() != info.dtype)
      mismatch(info, tensor, "dtype " + std::string(dtype_name(tensor.dtype())));
    if (info.shape) check_dims(info, tensor, symbols);
  }
}

}  // namespace asc
