// The rows tf32, e4m3, e5m2, e2m3, e3m2, e2m1 and ue8m0 against an MPFR
// reference written here, independent of src/fp (it reads no Format
// method): every encoding decodes to the reference value, and fp::round_pack
// (both instantiations, fed by fp::unpack of the source) rounds to each row
// in rn, rz, rm, rp exactly as the reference does:
//  - a structured set of f32 values around each row's range (exponents from
//    below the smallest subnormal to above the largest finite, significands
//    at and next to the row's halfway points) and 10^6 seeded random f32;
//  - for the rows of 8 bits and fewer, every value of every other new row
//    and every f16 value.
// Rows without infinity follow the overflow rule of round_pack.h, applied
// here independently: where IEEE 754 gives infinity, the row's NaN if it has
// one (e4m3, ue8m0), else max-finite; ue8m0 (no sign, no zero) gives NaN
// for negative values and its smallest value 2^-127 for zero and underflow.
#include <mpfr.h>

#include <cmath>
#include <cstring>

#include "fp_test_util.h"

namespace ptxfu::fptest {
namespace {

enum class Kind { ieee, finite_nan, finite, unsigned_exp_only };

// A row as the OCP/PTX documents describe it (see format.h for the sources).
struct Ref {
  const fp::Format* core;
  int e;  // exponent bits
  int m;  // fraction bits
  Kind kind;

  bool has_sign() const { return kind != Kind::unsigned_exp_only; }
  int width() const { return (has_sign() ? 1 : 0) + e + m; }
  int bias() const { return (1 << (e - 1)) - 1; }
  int all_ones() const { return (1 << e) - 1; }
  // Exponent of the smallest normal: E = 1, or E = 0 for ue8m0.
  int emin() const { return (kind == Kind::unsigned_exp_only ? 0 : 1) - bias(); }
  double max_value() const {
    switch (kind) {
      case Kind::ieee: return std::ldexp(2 - std::ldexp(1, -m), all_ones() - 1 - bias());
      case Kind::finite_nan: return std::ldexp(2 - std::ldexp(1, 1 - m), all_ones() - bias());
      case Kind::finite: return std::ldexp(2 - std::ldexp(1, -m), all_ones() - bias());
      case Kind::unsigned_exp_only: return std::ldexp(1, all_ones() - 1 - bias());
    }
    return 0;
  }
  uint64_t sign_bit(bool s) const { return s && has_sign() ? uint64_t{1} << (width() - 1) : 0; }
  // The NaN encoding (sign 0), if any.
  uint64_t nan_bits() const { return (uint64_t{1} << (e + m)) - 1; }

  // Value of an encoding; NaN for NaN encodings.
  double decode(uint64_t bits) const {
    const bool s = has_sign() && ((bits >> (e + m)) & 1);
    const int be = static_cast<int>((bits >> m) & ((1u << e) - 1));
    const uint64_t f = bits & ((uint64_t{1} << m) - 1);
    double v;
    switch (kind) {
      case Kind::ieee:
        if (be == all_ones()) return f ? NAN : (s ? -INFINITY : INFINITY);
        break;
      case Kind::finite_nan:
        if (be == all_ones() && f == (uint64_t{1} << m) - 1) return NAN;
        break;
      case Kind::finite: break;
      case Kind::unsigned_exp_only:
        if (be == all_ones()) return NAN;
        return std::ldexp(1, be - bias());
    }
    if (be == 0) {
      v = std::ldexp(static_cast<double>(f), emin() - m);
    } else {
      v = std::ldexp(static_cast<double>(f | (uint64_t{1} << m)), be - bias() - m);
    }
    return s ? -v : v;
  }

  // Encoding of a value of the row (finite, representable).
  uint64_t encode(double v) const {
    const uint64_t sb = sign_bit(std::signbit(v));
    const double a = std::fabs(v);
    if (a == 0) return sb;
    int x;
    const double frac = std::frexp(a, &x);  // a = frac * 2^x, 1/2 <= frac < 1
    const int unbiased = x - 1;
    if (unbiased >= emin()) {
      const auto f = static_cast<uint64_t>(std::ldexp(2 * frac - 1, m));
      return sb | (static_cast<uint64_t>(unbiased + bias()) << m) | f;
    }
    return sb | static_cast<uint64_t>(std::ldexp(a, m - emin()));
  }

  uint64_t max_bits(bool s) const { return sign_bit(s) | encode(max_value()); }
  // What a result IEEE 754 would make infinite becomes.
  uint64_t inf_result(bool s) const {
    switch (kind) {
      case Kind::ieee: return sign_bit(s) | (static_cast<uint64_t>(all_ones()) << m);
      case Kind::finite_nan: return sign_bit(s) | nan_bits();
      case Kind::finite: return max_bits(s);
      case Kind::unsigned_exp_only: return nan_bits();
    }
    return 0;
  }
};

const Ref kRefs[] = {
    {&fp::kTF32, 8, 10, Kind::ieee},
    {&fp::kE4M3, 4, 3, Kind::finite_nan},
    {&fp::kE5M2, 5, 2, Kind::ieee},
    {&fp::kE2M3, 2, 3, Kind::finite},
    {&fp::kE3M2, 3, 2, Kind::finite},
    {&fp::kE2M1, 2, 1, Kind::finite},
    {&fp::kUE8M0, 8, 0, Kind::unsigned_exp_only},
};
constexpr int kNumRefs = sizeof(kRefs) / sizeof(kRefs[0]);
const Ref kF16Ref{&fp::kF16, 5, 10, Kind::ieee};
const Ref kF32Ref{&fp::kF32, 8, 23, Kind::ieee};

mpfr_rnd_t to_mpfr(fp::Rounding r) {
  switch (r) {
    case fp::Rounding::rn: return MPFR_RNDN;
    case fp::Rounding::rz: return MPFR_RNDZ;
    case fp::Rounding::rm: return MPFR_RNDD;
    case fp::Rounding::rp: return MPFR_RNDU;
  }
  return MPFR_RNDN;
}

// The reference: `v` (exact, a double) rounded to row `t` under `r`, as an
// encoding. NaN results: the row's NaN (sign 0); rows without NaN have no
// reference for NaN (the caller skips those).
uint64_t reference(const Ref& t, double v, fp::Rounding r) {
  if (std::isnan(v)) return t.nan_bits();
  const bool neg = std::signbit(v);
  if (t.kind == Kind::unsigned_exp_only) {
    if (neg && v != 0) return t.nan_bits();
    if (std::fabs(v) < std::ldexp(1, t.emin())) return 0;  // zero and underflow: 2^-127
  }
  if (std::isinf(v)) return t.inf_result(neg);
  if (v == 0) return t.sign_bit(neg);
  // Round to m + 1 bits with the row's subnormal range and an unbounded
  // exponent above: MPFR writes x = f * 2^E with 1/2 <= f < 1, so the
  // smallest subnormal 2^(emin - m) has E = emin - m + 1.
  thread_local struct Scratch {
    mpfr_t x;
    Scratch() { mpfr_init2(x, 64); }
    ~Scratch() { mpfr_clear(x); }
  } s;
  const mpfr_exp_t old_emin = mpfr_get_emin();
  mpfr_set_prec(s.x, t.m + 1);
  mpfr_set_emin(t.emin() - t.m + 1);
  const mpfr_rnd_t mr = to_mpfr(r);
  int tern = mpfr_set_d(s.x, v, mr);
  tern = mpfr_check_range(s.x, tern, mr);
  mpfr_subnormalize(s.x, tern, mr);
  mpfr_set_emin(old_emin);
  const double d = mpfr_get_d(s.x, MPFR_RNDN);  // exact
  if (std::fabs(d) > t.max_value()) {           // overflow, decided as IEEE 754 does
    const bool to_inf = r == fp::Rounding::rn || (r == fp::Rounding::rm && neg) || (r == fp::Rounding::rp && !neg);
    return to_inf ? t.inf_result(neg) : t.max_bits(neg);
  }
  if (t.kind == Kind::unsigned_exp_only && d == 0) return 0;
  return t.encode(d);
}

// The core: unpack the source, round_pack it (u64 and u128) into the row;
// ieee::convert for the source's specials (and, for finite values, it must
// agree with round_pack).
struct CoreResult {
  uint64_t bits;
  bool instantiations_agree;
};
CoreResult core_round(const fp::Format& from, const fp::Format& to, uint64_t bits, fp::Rounding r) {
  const fp::Unpacked u = fp::unpack(from, bits);
  const uint64_t conv = fp::ieee::convert(from, to, bits, r);
  if (u.cls == fp::Class::normal || u.cls == fp::Class::subnormal) {
    const uint64_t r64 = fp::round_pack(to, u.sign, u.exp, u.sig, false, r);
    const uint64_t r128 = fp::round_pack(to, u.sign, u.exp, fp::u128{u.sig}, false, r);
    return {r64, r64 == r128 && conv == r64};
  }
  return {conv, true};
}

struct Checker {
  const Ref& to;
  long checked = 0;
  int bad = 0;

  void check(const Ref& from, uint64_t bits) {
    const double v = from.decode(bits);
    if (std::isnan(v) && to.kind == Kind::finite) return;  // no NaN to compare with
    for (fp::Rounding r : kModes) {
      const CoreResult got = core_round(*from.core, *to.core, bits, r);
      const uint64_t want = reference(to, v, r);
      ++checked;
      if ((got.bits != want || !got.instantiations_agree) && ++bad <= 10) {
        ADD_FAILURE() << from.core->name << " " << hex(bits) << " (" << v << ") -> " << to.core->name << "."
                      << mode_name(r) << ": got " << hex(got.bits) << " want " << hex(want)
                      << (got.instantiations_agree ? "" : " (u64/u128/convert disagree)");
      }
    }
  }
};

uint32_t f32_bits(int sign, int biased, uint32_t frac) {
  return (static_cast<uint32_t>(sign) << 31) | (static_cast<uint32_t>(biased) << 23) | (frac & 0x7fffff);
}

class FpRows : public ::testing::TestWithParam<int> {};

// f32 values whose exponents run from below the row's smallest subnormal
// to above its largest finite value, with the fraction bits the row keeps
// set to 0, 1, all ones and mixed patterns, and the bits it drops set to
// exactly half, just below and just above, zero, the smallest and all ones.
// Plus edge_values(kF32) (zeros, infinities, NaN, subnormals, extremes).
TEST_P(FpRows, F32Structured) {
  const Ref& t = kRefs[GetParam()];
  Checker c{t};
  for (uint64_t b : edge_values(fp::kF32)) c.check(kF32Ref, b);
  const int kept = t.m < 23 ? t.m : 23;
  const uint32_t half = uint32_t{1} << (22 - kept);  // the first dropped bit
  const uint32_t tails[] = {0, 1, half - 1, half, half + 1, 2 * half - 1, half | (half >> 1)};
  const uint32_t keeps[] = {0, 1, (1u << kept) - 1, (1u << kept) - 2, 0x2aaaaau & ((1u << kept) - 1)};
  const int lo = t.emin() - t.m - 3;
  const int hi = static_cast<int>(std::ilogb(t.max_value())) + 3;
  for (int sign = 0; sign < 2; ++sign)
    for (int e = lo; e <= hi; ++e) {
      const int biased = e + 127;
      if (biased < 1 || biased > 254) continue;
      for (uint32_t k : keeps)
        for (uint32_t tl : tails) c.check(kF32Ref, f32_bits(sign, biased, (k << (23 - kept)) | (tl & (2 * half - 1))));
    }
  EXPECT_EQ(c.bad, 0) << c.checked << " roundings checked";
}

// 10^6 seeded random f32: three in four with an exponent near the row's
// range (uniform from 4 below its smallest subnormal to 4 above its largest
// finite), one in four uniform over all bit patterns.
TEST_P(FpRows, F32Random) {
  const Ref& t = kRefs[GetParam()];
  Checker c{t};
  std::mt19937_64 rng(0x5eed + GetParam());
  const int lo = t.emin() - t.m - 4;
  const int hi = static_cast<int>(std::ilogb(t.max_value())) + 4;
  for (int i = 0; i < 1000000; ++i) {
    uint32_t b = static_cast<uint32_t>(rng());
    if (i % 4 != 0) {
      int biased = lo + static_cast<int>(rng() % (hi - lo + 1)) + 127;
      biased = biased < 0 ? 0 : biased > 254 ? 254 : biased;
      b = f32_bits(b >> 31, biased, b);
    }
    c.check(kF32Ref, b);
  }
  EXPECT_EQ(c.bad, 0) << c.checked << " roundings checked";
}

// Rows of 8 bits and fewer: every value of every other new row and of f16.
TEST_P(FpRows, ExhaustiveSources) {
  const Ref& t = kRefs[GetParam()];
  if (t.width() > 8) GTEST_SKIP() << t.core->name << " is wider than 8 bits";
  Checker c{t};
  for (int i = 0; i < kNumRefs; ++i) {
    if (i == GetParam()) continue;
    const Ref& from = kRefs[i];
    for (uint64_t b = 0; b < (uint64_t{1} << from.width()); ++b) c.check(from, b);
  }
  for (uint64_t b = 0; b < 0x10000; ++b) c.check(kF16Ref, b);
  EXPECT_EQ(c.bad, 0) << c.checked << " roundings checked";
}

// Every encoding: unpack, classify and is_nan agree with the reference
// decoding; inf(), max_finite(), nan() and the widths are the documented
// ones.
TEST_P(FpRows, Encodings) {
  const Ref& t = kRefs[GetParam()];
  const fp::Format& f = *t.core;
  EXPECT_EQ(f.exp_bits, t.e);
  EXPECT_EQ(f.frac_bits, t.m);
  EXPECT_EQ(f.width(), t.width());
  EXPECT_EQ(t.decode(f.max_finite(false)), t.max_value());
  EXPECT_EQ(t.decode(f.max_finite(true)), t.has_sign() ? -t.max_value() : t.max_value());
  EXPECT_EQ(f.inf(false), t.inf_result(false));
  EXPECT_EQ(f.inf(true), t.inf_result(true));
  if (t.kind != Kind::finite) {
    EXPECT_TRUE(std::isnan(t.decode(f.nan())));
  }
  int bad = 0;
  for (uint64_t b = 0; b < (uint64_t{1} << t.width()); ++b) {
    const double v = t.decode(b);
    const fp::Unpacked u = fp::unpack(f, b);
    double got;
    switch (u.cls) {
      case fp::Class::nan: got = NAN; break;
      case fp::Class::inf: got = u.sign ? -INFINITY : INFINITY; break;
      case fp::Class::zero: got = u.sign ? -0.0 : 0.0; break;
      default: got = std::ldexp(static_cast<double>(u.sig), u.exp) * (u.sign ? -1 : 1);
    }
    const bool same_value = std::isnan(v) ? std::isnan(got) : (got == v && std::signbit(got) == std::signbit(v));
    const bool sub_ok =
        (u.cls == fp::Class::subnormal) == (v != 0 && std::isfinite(v) && std::fabs(v) < std::ldexp(1, t.emin()));
    if ((!same_value || !sub_ok || fp::is_nan(f, b) != std::isnan(v) || fp::classify(f, b) != u.cls) && ++bad <= 10)
      ADD_FAILURE() << f.name << " " << hex(b) << ": reference " << v << ", unpack gives " << got;
  }
  EXPECT_EQ(bad, 0);
  // The numbers the documents give.
  if (&f == &fp::kE4M3) {
    EXPECT_EQ(t.max_value(), 448.0);
    EXPECT_EQ(f.max_finite(false), 0x7eu);
    EXPECT_EQ(f.nan(), 0x7fu);
  }
  if (&f == &fp::kE5M2) {
    EXPECT_EQ(t.max_value(), 57344.0);
  }
  if (&f == &fp::kE2M3) {
    EXPECT_EQ(t.max_value(), 7.5);
  }
  if (&f == &fp::kE3M2) {
    EXPECT_EQ(t.max_value(), 28.0);
  }
  if (&f == &fp::kE2M1) {
    EXPECT_EQ(t.max_value(), 6.0);
  }
  if (&f == &fp::kUE8M0) {
    EXPECT_EQ(t.decode(0), std::ldexp(1, -127));
    EXPECT_EQ(f.max_finite(false), 0xfeu);
    EXPECT_EQ(f.nan(), 0xffu);
  }
  if (&f == &fp::kTF32) {
    EXPECT_EQ(f.width(), 19);
  }
}

std::string row_name(const ::testing::TestParamInfo<int>& i) { return std::string(kRefs[i.param].core->name); }

INSTANTIATE_TEST_SUITE_P(New, FpRows, ::testing::Range(0, kNumRefs), row_name);

}  // namespace
}  // namespace ptxfu::fptest
