// Differential tests against the MPFR oracle: add, sub, mul, div, fma in the
// four rounding modes for f16, bf16, f32 and f64. Structured edge cases
// (exponent boundaries x significand patterns, crossed) and 250k seeded
// random cases per (format, op, mode): 10^6 per (format, op). Every case is
// also run through the array forms (fp::add_n, sub_n, mul_n, fma_n).
#include <tuple>
#include <vector>

#include "fp_test_util.h"

namespace ptxfu::fptest {
namespace {

enum class BinOp { add, sub, mul, div, fma };
const char* op_name(BinOp o) {
  static const char* n[] = {"add", "sub", "mul", "div", "fma"};
  return n[static_cast<int>(o)];
}

constexpr int kRandomPerMode = 250000;

struct Case {
  const Fmt& fmt;
  BinOp op;
  fp::Rounding rnd;
  int mismatches = 0;

  uint64_t core(uint64_t a, uint64_t b, uint64_t c) const {
    const fp::Policy p{rnd};
    const fp::Format& f = *fmt.core;
    switch (op) {
      case BinOp::add: return fp::add(f, a, b, p);
      case BinOp::sub: return fp::sub(f, a, b, p);
      case BinOp::mul: return fp::mul(f, a, b, p);
      case BinOp::div: return fp::div(f, a, b, p);
      case BinOp::fma: return fp::fma(f, a, b, c, p);
    }
    return 0;
  }
  uint64_t want(uint64_t a, uint64_t b, uint64_t c) const {
    const oracle::Rnd r = to_oracle(rnd);
    switch (op) {
      case BinOp::add: return oracle::add_bits(fmt.spec, r, a, b);
      case BinOp::sub: return oracle::sub_bits(fmt.spec, r, a, b);
      case BinOp::mul: return oracle::mul_bits(fmt.spec, r, a, b);
      case BinOp::div: return oracle::div_bits(fmt.spec, r, a, b);
      case BinOp::fma: return oracle::fma_bits(fmt.spec, r, a, b, c);
    }
    return 0;
  }
  // The generic (no fast path) result must be the same value; NaNs compare
  // as NaN because the IEEE layer leaves NaN bits to the policy.
  uint64_t generic(uint64_t a, uint64_t b, uint64_t c) const {
    const fp::Format& f = *fmt.core;
    switch (op) {
      case BinOp::add: return fp::generic::add(f, a, b, rnd);
      case BinOp::sub: return fp::generic::add(f, a, b ^ f.sign_mask(), rnd);
      case BinOp::mul: return fp::generic::mul(f, a, b, rnd);
      case BinOp::div: return fp::ieee::div(f, a, b, rnd);
      case BinOp::fma: return fp::generic::fma(f, a, b, c, rnd);
    }
    return 0;
  }

  // Every case again through the array API (fp::add_n ...), checked by
  // check_arrays() against the same oracle values.
  std::vector<uint64_t> va{}, vb{}, vc{}, vwant{};

  void check_arrays() {
    const fp::Policy p{rnd};
    const fp::Format& f = *fmt.core;
    const size_t n = va.size();
    std::vector<uint64_t> d(n);
    for (const bool simd : {true, false}) {  // the SIMD kernels where the host has them, and the portable loops
      const bool was = fp::detail::use_array_simd(simd);
      switch (op) {
        case BinOp::add: fp::add_n(f, n, va.data(), vb.data(), d.data(), p); break;
        case BinOp::sub: fp::sub_n(f, n, va.data(), vb.data(), d.data(), p); break;
        case BinOp::mul: fp::mul_n(f, n, va.data(), vb.data(), d.data(), p); break;
        case BinOp::fma: fp::fma_n(f, n, va.data(), vb.data(), vc.data(), d.data(), p); break;
        case BinOp::div: fp::detail::use_array_simd(was); return;  // no array form
      }
      fp::detail::use_array_simd(was);
      for (size_t i = 0; i < n; ++i)
        if (d[i] != vwant[i] && ++mismatches <= 10)
          ADD_FAILURE() << op_name(op) << "." << mode_name(rnd) << "." << f.name << " (array, simd " << simd << ") "
                        << hex(va[i]) << " " << hex(vb[i]) << (op == BinOp::fma ? " " + hex(vc[i]) : "") << ": got "
                        << hex(d[i]) << " want " << hex(vwant[i]);
    }
  }

  void check(uint64_t a, uint64_t b, uint64_t c) {
    const uint64_t got = core(a, b, c);
    const uint64_t exp = want(a, b, c);
    va.push_back(a), vb.push_back(b), vc.push_back(c), vwant.push_back(exp);
    uint64_t gen = generic(a, b, c);
    if (fp::is_nan(*fmt.core, gen)) gen = fp::canonical_nan(*fmt.core);
    if (got != exp || gen != exp) {
      if (++mismatches <= 10) {
        ADD_FAILURE() << op_name(op) << "." << mode_name(rnd) << "." << fmt.core->name << " " << hex(a) << " " << hex(b)
                      << (op == BinOp::fma ? " " + hex(c) : "") << ": got " << hex(got) << " generic " << hex(gen)
                      << " want " << hex(exp);
      }
    }
  }
};

using Param = std::tuple<int, BinOp, fp::Rounding>;

class FpDiffArith : public ::testing::TestWithParam<Param> {};

TEST_P(FpDiffArith, EdgeCases) {
  const auto [fi, op, rnd] = GetParam();
  Case k{kFormats[fi], op, rnd};
  const fp::Format& f = *k.fmt.core;
  const bool walking = f.frac_bits <= 23;
  const std::vector<uint64_t> v = edge_values(f, walking);
  if (op != BinOp::fma) {
    for (uint64_t a : v)
      for (uint64_t b : v) k.check(a, b, 0);
  } else {
    // Every (a, b) of the non-walking grid against a sample of addends, and
    // random triples from the full grid.
    const std::vector<uint64_t> g = edge_values(f, false);
    std::mt19937_64 rng(7);
    for (uint64_t a : g)
      for (uint64_t b : g)
        for (int i = 0; i < 4; ++i) k.check(a, b, g[rng() % g.size()]);
    for (int i = 0; i < 200000; ++i) k.check(v[rng() % v.size()], v[rng() % v.size()], v[rng() % v.size()]);
  }
  k.check_arrays();
  EXPECT_EQ(k.mismatches, 0);
}

TEST_P(FpDiffArith, Random) {
  const auto [fi, op, rnd] = GetParam();
  Case k{kFormats[fi], op, rnd};
  Gen g(*k.fmt.core, 1000 * fi + 10 * static_cast<int>(op) + static_cast<int>(rnd));
  for (int i = 0; i < kRandomPerMode; ++i) {
    uint64_t a = 0, b = 0, c = 0;
    switch (op) {
      case BinOp::add:
      case BinOp::sub: g.pair(a, b); break;
      case BinOp::mul: g.mul_pair(a, b, false); break;
      case BinOp::div: g.mul_pair(a, b, true); break;
      case BinOp::fma: g.triple(a, b, c); break;
    }
    k.check(a, b, c);
  }
  k.check_arrays();
  EXPECT_EQ(k.mismatches, 0);
}

std::string param_name(const ::testing::TestParamInfo<Param>& i) {
  const auto [fi, op, rnd] = i.param;
  return std::string(kFormats[fi].core->name) + "_" + op_name(op) + "_" + mode_name(rnd);
}

INSTANTIATE_TEST_SUITE_P(All, FpDiffArith,
                         ::testing::Combine(::testing::Range(0, 4),
                                            ::testing::Values(BinOp::add, BinOp::sub, BinOp::mul, BinOp::div,
                                                              BinOp::fma),
                                            ::testing::ValuesIn(kModes)),
                         param_name);

}  // namespace
}  // namespace ptxfu::fptest
