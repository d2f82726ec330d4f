#include "float32_block_kernels.hpp"

#include "element_reader.hpp"
#if defined(ASC_VALIDATOR_AVX512)
#include "float32_block_kernels_avx512.hpp"
#endif

namespace asc::validator {
namespace {

struct WidenedBlock {
  alignas(64) double golden[kBlockSize];
  alignas(64) double actual[kBlockSize];
};

WidenedBlock widened(const float* golden, const float* actual, std::size_t count) {
  WidenedBlock block;
  widen_float32(golden, count, block.golden);
  widen_float32(actual, count, block.actual);
  return block;
}

}  // namespace

bool float32_kernels_in_place() {
#if defined(ASC_VALIDATOR_AVX512)
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma");
  }();
  return supported;
#else
  return false;
#endif
}

FirstPassSums first_pass_block(const float* golden, const float* actual, std::size_t count,
                               double abs_tolerance, double rel_tolerance, double* abs_error) {
#if defined(ASC_VALIDATOR_AVX512)
  if (float32_kernels_in_place())
    return first_pass_block_avx512(golden, actual, count, abs_tolerance, rel_tolerance, abs_error);
#endif
  const WidenedBlock block = widened(golden, actual, count);
  return first_pass_block(block.golden, block.actual, count, abs_tolerance, rel_tolerance, abs_error);
}

SecondPassSums second_pass_block(const float* golden, const float* actual, std::size_t count,
                                 const SecondPassConstants& constants) {
#if defined(ASC_VALIDATOR_AVX512)
  if (float32_kernels_in_place()) return second_pass_block_avx512(golden, actual, count, constants);
#endif
  const WidenedBlock block = widened(golden, actual, count);
  return second_pass_block(block.golden, block.actual, count, constants);
}

}  // namespace asc::validator
