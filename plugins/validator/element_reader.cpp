#include "element_reader.hpp"

#include <array>
#include <asc/sdk/half.hpp>
#include <span>
#include <type_traits>

#include "block_kernels.hpp"
#include "simd_clones.hpp"

namespace asc::validator {

// float32 (and float16 via float) is what nearly every comparison reads: widened with the widest
// vectors available (the baseline build's SSE2 loop took as long as a fifth of the comparison).
ASC_VALIDATOR_CLONES
void widen_float32(const float* in, std::size_t count, double* out) {
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<double>(in[i]);
}

namespace {

template <class T>
void convert_run(const T* in, std::size_t count, double* out) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    // The SDK's bulk conversion uses the F16C instructions; go through float in block-sized runs.
    std::array<float, kBlockSize> floats;
    for (std::size_t done = 0; done < count; done += floats.size()) {
      const std::size_t n = std::min(floats.size(), count - done);
      convert(std::span<const T>(in + done, n), std::span<float>(floats.data(), n));
      widen_float32(floats.data(), n, out + done);
    }
  } else if constexpr (std::is_same_v<T, float>) {
    widen_float32(in, count, out);
  } else {
    for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<double>(in[i]);
  }
}

}  // namespace

ElementReader::ElementReader(const TensorView& view) : view_(view), contiguous_(view.is_contiguous()) {}

const float* ElementReader::float32_data() const {
  return contiguous_ && view_.dtype() == DType::Float32 ? reinterpret_cast<const float*>(view_.raw()) : nullptr;
}

void ElementReader::read(std::int64_t first, std::size_t count, double* out) const {
  if (!contiguous_) return read_strided(first, count, out);
  visit_dtype(view_.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    convert_run(reinterpret_cast<const T*>(view_.raw()) + first, count, out);
  });
}

void ElementReader::read_strided(std::int64_t first, std::size_t count, double* out) const {
  const Shape& shape = view_.shape();
  const Shape& strides = view_.strides();
  const std::size_t rank = shape.size();
  Shape index(rank, 0);
  std::int64_t rest = first, offset = 0;
  for (std::size_t d = rank; d-- > 0;) {
    index[d] = rest % shape[d];
    rest /= shape[d];
    offset += index[d] * strides[d];
  }
  visit_dtype(view_.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* base = reinterpret_cast<const T*>(view_.raw());
    for (std::size_t i = 0; i < count; ++i) {
      convert_run(base + offset, 1, out + i);
      for (std::size_t d = rank; d-- > 0;) {  // odometer step
        offset += strides[d];
        if (++index[d] < shape[d]) break;
        offset -= strides[d] * shape[d];
        index[d] = 0;
      }
    }
  });
}

}  // namespace asc::validator
