// Test-side helpers for the approximation suites: an MPFR oracle evaluated at
// 128 bits and returned as long double (64-bit significand, far finer than
// any bound checked here), bit-pattern decoding, and error metrics.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "fp/format.h"

namespace ptxfu::test {

enum class RefFn { rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh };

// f(x) correctly rounded to long double (overflows to +-inf like MPFR does).
long double mpfr_ref(RefFn fn, long double x);
long double mpfr_div_ref(long double a, long double b);

// The value of a finite bit pattern of format f.
long double value_of(const fp::Format& f, uint64_t bits);
// One unit in the last place of format f at magnitude |v|, subnormal
// quantum as the floor; values beyond the largest binade use its ulp.
long double ulp_of(const fp::Format& f, long double v);
// "2^-10.32" (or "0" for no error).
std::string pow2_str(long double err);

// Records the largest error seen and the input that produced it.
struct MaxErr {
  long double err = 0;
  uint64_t at = 0;
  void add(long double e, uint64_t input) {
    if (e > err) {
      err = e;
      at = input;
    }
  }
};

// Seeded f32 input patterns (no NaN): uniformly random bit patterns (the
// whole range, every binade alike), runs of consecutive patterns around the
// given dense points (0, +-1 and range limits), and values uniform in one of
// the intervals (picked at random). Only patterns for which `keep` holds are
// returned; the result has n of them.
struct Interval {
  float lo, hi;
};
std::vector<uint32_t> f32_inputs(uint64_t seed, size_t n, const std::vector<float>& dense,
                                 const std::vector<Interval>& intervals, bool (*keep)(uint32_t) = nullptr);

}  // namespace ptxfu::test
