#!/usr/bin/env python3
"""Fits the polynomials of asc::vector_erf (sdk/include/asc/sdk/vector_math.hpp).

erf(x) = x P(x^2) for |x| <= 0.875 and erf(x) = 1 - exp(-x^2) Q(1/x - c) for 0.875 < x < 3.92,
each a least-squares fit weighted for relative error, on Chebyshev-spaced points, against
mpmath's erf at 40 digits. Prints the coefficients (lowest degree first) and the largest error
of the float32 evaluation emulated with numpy. Needs python3-mpmath and python3-numpy (Debian).
"""
import mpmath
import numpy as np

mpmath.mp.dps = 40
SMALL, LARGE = 0.875, 3.92


def chebyshev_points(lo, hi, count):
    return np.cos(np.linspace(0, np.pi, count)) * 0.5 * (hi - lo) + 0.5 * (hi + lo)


def fit_small():
    z = chebyshev_points(0.0, SMALL * SMALL, 3000)
    y = np.array([float(mpmath.erf(mpmath.sqrt(v)) / mpmath.sqrt(v)) if v > 0 else float(2 / mpmath.sqrt(mpmath.pi))
                  for v in z])
    return np.polynomial.polynomial.polyfit(z, y, 5, w=1 / y)


def fit_large():
    centre = 0.5 * (1 / LARGE + 1 / SMALL)
    x = chebyshev_points(SMALL, LARGE, 4000)
    q = np.array([float(mpmath.erfc(v) * mpmath.exp(v * v)) for v in x])
    return centre, np.polynomial.polynomial.polyfit(1 / x - centre, q, 9, w=1 / q)


def horner32(coefficients, t):
    r = np.float32(coefficients[-1])
    for c in coefficients[-2::-1]:
        r = np.float32(r * t + np.float32(c))
    return r


def erf32(x, p, centre, q):
    f32 = np.float32
    a = abs(x)
    if a <= SMALL:
        return f32(x * horner32(p, f32(x * x)))
    if a >= LARGE:
        return f32(np.sign(x))
    tail = f32(1) - f32(f32(np.exp(-np.float64(f32(x * x)))) * horner32(q, f32(f32(1) / a) - f32(centre)))
    return tail if x > 0 else -tail


def main():
    p = fit_small()
    centre, q = fit_large()
    print("P (x^2):", ", ".join(repr(float(c)) for c in p))
    print("centre:", repr(centre))
    print("Q (1/x - centre):", ", ".join(repr(float(c)) for c in q))
    worst = 0.0
    for x in np.linspace(-5, 5, 100001).astype(np.float32):
        exact = float(mpmath.erf(mpmath.mpf(float(x))))
        ulp = float(np.spacing(np.float32(abs(exact)))) if exact != 0 else 1e-45
        worst = max(worst, abs(float(erf32(x, p, centre, q)) - exact) / ulp)
    print(f"largest error of the float32 evaluation on [-5, 5]: {worst:.2f} ulp")


if __name__ == "__main__":
    main()
