// NonZero: int64 [rank, count] coordinates of the non-zero elements in row-major order.
#include "tensor/inference_helpers.hpp"
#include "tensor/scalar_cost.hpp"

namespace asc::ops {
namespace {

void infer_non_zero(InferenceContext& context) {
  const auto dims = input_dims(context, 0);
  set_output(context, 0, DType::Int64, Dims{dims ? Dim(static_cast<std::int64_t>(dims->size())) : Dim(), Dim()});
}

void compute_non_zero(KernelContext& context) {
  const Tensor& input = context.input(0);
  const Shape& shape = input.shape();
  std::vector<std::int64_t> hits;  // flat positions of non-zero elements
  visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* values = input.data<T>();
    for (std::int64_t n = 0; n < input.numel(); ++n)
      if (values[n] != T(0)) hits.push_back(n);
  });
  const auto count = static_cast<std::int64_t>(hits.size());
  Tensor out(DType::Int64, {input.rank(), count});
  std::int64_t* coordinates = out.data<std::int64_t>();
  for (std::int64_t k = 0; k < count; ++k) {
    std::int64_t rest = hits[static_cast<std::size_t>(k)];
    for (std::size_t d = shape.size(); d-- > 0;) {
      coordinates[static_cast<std::int64_t>(d) * count + k] = rest % shape[d];
      rest /= shape[d];
    }
  }
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "NonZero", 11, 17, infer_non_zero, compute_non_zero, scalar_data_movement_cost);

}  // namespace asc::ops
