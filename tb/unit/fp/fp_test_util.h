// Shared helpers of the fp suites: format pairs (core row + oracle spec),
// structured edge-case values and seeded random operands.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "fp/format.h"
#include "fp/ops.h"
#include "oracle/mpfr_oracle.h"

namespace ptxfu::fptest {

struct Fmt {
  const fp::Format* core;
  oracle::Spec spec;
};
inline const Fmt kFormats[] = {
    {&fp::kF16, oracle::kF16},
    {&fp::kBF16, oracle::kBF16},
    {&fp::kF32, oracle::kF32},
    {&fp::kF64, oracle::kF64},
};
// Every row of format.h.
inline const fp::Format* const kAllRows[] = {&fp::kF16,  &fp::kBF16, &fp::kF32,  &fp::kF64,  &fp::kTF32, &fp::kE4M3,
                                             &fp::kE5M2, &fp::kE2M3, &fp::kE3M2, &fp::kE2M1, &fp::kUE8M0};
inline const fp::Rounding kModes[] = {fp::Rounding::rn, fp::Rounding::rz, fp::Rounding::rm, fp::Rounding::rp};
inline oracle::Rnd to_oracle(fp::Rounding r) { return static_cast<oracle::Rnd>(static_cast<int>(r)); }
inline const char* mode_name(fp::Rounding r) {
  static const char* n[] = {"rn", "rz", "rm", "rp"};
  return n[static_cast<int>(r)];
}

inline std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// Oracle results are canonical NaNs already; the core must return exactly the
// same bits, NaN included (its NaN policy defaults to the canonical NaN).
inline bool same(uint64_t got, uint64_t want) { return got == want; }

inline uint64_t make(const fp::Format& f, bool sign, uint64_t biased, uint64_t frac) {
  return (sign ? f.sign_mask() : 0) | (biased << f.frac_bits) | (frac & f.frac_mask());
}

// Structured edge cases: each interesting biased exponent (subnormal, the
// lowest normals, around 1.0, the top normals) times significand patterns
// (zero, one, all ones, walking one, walking zero, halfway 100..0, 0..01),
// both signs, plus zeros, infinities and a NaN.
inline std::vector<uint64_t> edge_values(const fp::Format& f, bool walking = true) {
  const uint64_t emax_biased = (uint64_t{1} << f.exp_bits) - 2;
  const uint64_t b = f.bias();
  std::vector<uint64_t> exps = {0, 1, 2, b - 1, b, b + 1, emax_biased - 1, emax_biased};
  std::vector<uint64_t> fracs = {0,
                                 1,
                                 2,
                                 3,
                                 f.frac_mask(),
                                 f.frac_mask() - 1,
                                 uint64_t{1} << (f.frac_bits - 1),
                                 (uint64_t{1} << (f.frac_bits - 1)) | 1,
                                 (uint64_t{1} << (f.frac_bits - 1)) - 1};
  if (walking) {
    for (int i = 0; i < f.frac_bits; ++i) {
      fracs.push_back(uint64_t{1} << i);
      fracs.push_back(f.frac_mask() ^ (uint64_t{1} << i));
    }
  }
  std::vector<uint64_t> v;
  for (int s = 0; s < 2; ++s) {
    for (uint64_t e : exps)
      for (uint64_t m : fracs) v.push_back(make(f, s, e, m));
    v.push_back(f.inf(s));
    v.push_back(f.zero(s) | f.exp_mask() | 1);  // a signalling-pattern NaN
  }
  return v;
}

// Random operands with a bias towards hard cases: exponents close to each
// other (cancellation, halfway points), to the subnormal and overflow ends,
// and significands with long runs of ones or zeros.
class Gen {
 public:
  Gen(const fp::Format& f, uint64_t seed) : f_(f), rng_(seed) {}

  uint64_t bits() { return rng_() & f_.bits_mask(); }

  uint64_t frac() {
    switch (rng_() % 4) {
      case 0: return f_.frac_mask() & ~(f_.frac_mask() >> (rng_() % (f_.frac_bits + 1)));
      case 1: return f_.frac_mask() >> (rng_() % (f_.frac_bits + 1));
      default: return rng_() & f_.frac_mask();
    }
  }
  int64_t max_biased() const { return (int64_t{1} << f_.exp_bits) - 2; }
  uint64_t with_exp(int64_t e) {
    if (e < 0) e = 0;
    if (e > max_biased()) e = max_biased();
    return make(f_, rng_() & 1, static_cast<uint64_t>(e), frac());
  }
  uint64_t any_exp() {
    switch (rng_() % 8) {
      case 0: return bits();
      case 1: return with_exp(static_cast<int64_t>(rng_() % 3));  // subnormal / smallest normals
      case 2: return with_exp(max_biased() - static_cast<int64_t>(rng_() % 3));
      default: return with_exp(static_cast<int64_t>(rng_() % (max_biased() + 1)));
    }
  }
  // An operand whose biased exponent is near `e` (within the precision).
  uint64_t near(uint64_t other) {
    const int64_t e = static_cast<int64_t>((other & f_.exp_mask()) >> f_.frac_bits);
    const int64_t span = f_.frac_bits + 4;
    return with_exp(e + static_cast<int64_t>(rng_() % (2 * span + 1)) - span);
  }
  // Pair for add/sub: often close exponents.
  void pair(uint64_t& a, uint64_t& b) {
    a = any_exp();
    b = (rng_() % 4 == 0) ? any_exp() : near(a);
  }
  // Pair for mul/div: exponents drawn so the result often lands near the
  // subnormal or overflow boundary.
  void mul_pair(uint64_t& a, uint64_t& b, bool divide) {
    a = any_exp();
    const int64_t ea = static_cast<int64_t>((a & f_.exp_mask()) >> f_.frac_bits);
    const int64_t bias = f_.bias();
    int64_t target;  // biased exponent of the result
    switch (rng_() % 4) {
      case 0: target = static_cast<int64_t>(rng_() % 4) - f_.frac_bits; break;  // subnormal
      case 1: target = max_biased() - static_cast<int64_t>(rng_() % 3); break;  // overflow
      default: b = any_exp(); return;
    }
    const int64_t eb = divide ? ea - target + bias : target - ea + bias;
    b = with_exp(eb);
  }
  // Triple for fma: the addend often near -(a*b) to cancel.
  void triple(uint64_t& a, uint64_t& b, uint64_t& c) {
    mul_pair(a, b, false);
    if (rng_() % 3 == 0) {
      c = any_exp();
      return;
    }
    const int64_t ea = static_cast<int64_t>((a & f_.exp_mask()) >> f_.frac_bits);
    const int64_t eb = static_cast<int64_t>((b & f_.exp_mask()) >> f_.frac_bits);
    const int64_t span = 2 * f_.frac_bits + 4;
    c = with_exp(ea + eb - f_.bias() + static_cast<int64_t>(rng_() % (2 * span + 1)) - span);
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  const fp::Format& f_;
  std::mt19937_64 rng_;
};

}  // namespace ptxfu::fptest
