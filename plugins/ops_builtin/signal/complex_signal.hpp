// Signals of DFT and STFT: the last axis holds one value (real) or two (real, imaginary). The
// transforms run in double precision.
#pragma once

#include <complex>
#include <span>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

using Complex = std::complex<double>;

// The values of `signal` (a float type whose last axis is 1 or 2) as complex numbers in
// row-major order over all but the last axis. Throws InvalidOperator / OperatorDtypeUnsupported
// naming the node otherwise.
std::vector<Complex> read_complex_signal(const Tensor& signal, const Node& node);

// A tensor of `dtype` with shape `shape` + [2] holding `values` as (real, imaginary) pairs.
Tensor complex_tensor(const std::vector<Complex>& values, Shape shape, DType dtype);

// out[k] for k < out.size(): the N-point DFT of `signal` (N = signal.size()), or with `inverse`
// the inverse transform including its 1/N. Computed directly in O(N * out.size()), which is
// plenty for the operator tests' sizes; an FFT would be the upgrade for long signals.
void direct_dft(std::span<const Complex> signal, bool inverse, std::span<Complex> out);

// Flops of direct_dft: one complex multiply-add (8 flops) per input sample per output bin.
inline double direct_dft_flops(double samples, double bins) { return 8.0 * samples * bins; }

}  // namespace asc::ops
