// cvt against independent references: the MPFR oracle (tb/oracle) for the
// IEEE rows, a table reference written here for e4m3, and host integer
// arithmetic (__int128) for the integer sides.
//  - every f16 and bf16 value to f16, bf16, f32, f64 in rn rz rm rp, and
//    every f16 to e4m3/e5m2 (.rn.satfinite); every e4m3/e5m2 to f16;
//  - 10^6 seeded random f32 to f16, bf16 (four modes), e4m3, e5m2, and
//    10^6 random f64 to f32, f16, bf16 (four modes);
//  - float -> int (every f16, 10^6 random f32 and f64, each integer type,
//    .rni .rzi .rmi .rpi) and int -> float (10^6 random integers);
//  - integral rounding within f16 (every value);
//  - DISABLED_EveryF32 (scripts/cvt-exhaustive.sh): every f32 to f16, bf16,
//    e4m3, e5m2 (rn; .satfinite for FP8).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>

#include "exec/execute.h"
#include "fp/cvt.h"
#include "int/convert.h"
#include "isa/decode.h"
#include "oracle/mpfr_oracle.h"

#include <mpfr.h>

namespace ptxfu::fptest {
namespace {

using fp::Rounding;
using oracle::Rnd;

constexpr Rounding kModes[] = {Rounding::rn, Rounding::rz, Rounding::rm, Rounding::rp};
constexpr Rnd kRnd[] = {Rnd::rn, Rnd::rz, Rnd::rm, Rnd::rp};
constexpr oracle::Spec kE5M2Spec{5, 2};

double f32_value(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
double f64_value(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

// The IEEE rows: one correctly rounded step (v * 1 keeps the sign of zero).
uint64_t ref_ieee(const oracle::Spec& out, Rnd r, double v) {
  return std::isnan(v) ? oracle::encode(out, NAN) : oracle::mul(out, r, v, 1.0);
}

// e4m3 (OCP FP8): S.EEEE.MMM, bias 7, no infinity, S.1111.111 is NaN, max 448.
double e4m3_value(unsigned code) {
  const unsigned e = (code >> 3) & 15, m = code & 7;
  const double mag = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, static_cast<int>(e) - 10);
  return (code & 0x80) ? -mag : mag;
}
// .rn.satfinite to e4m3: nearest, ties to even code; beyond 448 clamps.
uint64_t ref_e4m3_satfinite(double v) {
  if (std::isnan(v)) return 0x7f;
  const unsigned sign = std::signbit(v) ? 0x80 : 0;
  const double a = std::fabs(v);
  if (a >= 448) return sign | 0x7e;
  unsigned c = 0;
  while (c + 1 <= 0x7e && e4m3_value(c + 1) <= a) ++c;
  if (e4m3_value(c) == a) return sign | c;
  const double mid = (e4m3_value(c) + e4m3_value(c + 1)) / 2;
  const unsigned pick = a < mid ? c : a > mid ? c + 1 : ((c & 1) ? c + 1 : c);
  return sign | pick;
}
uint64_t ref_e5m2_satfinite(double v) {
  if (std::isnan(v)) return 0x7f;
  const uint64_t r = oracle::mul(kE5M2Spec, Rnd::rn, v, 1.0);
  return (r & 0x7f) == 0x7c ? (r & 0x80) | 0x7b : r;
}

fp::CvtPolicy mode(Rounding r) {
  fp::CvtPolicy p;
  p.rnd = r;
  return p;
}
fp::CvtPolicy satfinite() {
  fp::CvtPolicy p;
  p.satfinite = true;
  return p;
}

struct Row {
  const fp::Format* core;
  oracle::Spec spec;
};
const Row kF16Row{&fp::kF16, oracle::kF16}, kBF16Row{&fp::kBF16, oracle::kBF16}, kF32Row{&fp::kF32, oracle::kF32},
    kF64Row{&fp::kF64, oracle::kF64};

TEST(Cvt, EveryHalfToEveryIeeeFormat) {
  size_t checked = 0;
  for (const Row& from : {kF16Row, kBF16Row})
    for (const Row& to : {kF16Row, kBF16Row, kF32Row, kF64Row}) {
      if (from.core == to.core) continue;
      for (int m = 0; m < 4; ++m)
        for (uint32_t a = 0; a < 0x10000; ++a) {
          const uint64_t want = ref_ieee(to.spec, kRnd[m], oracle::decode(from.spec, a));
          const uint64_t got = fp::cvt_float(*from.core, *to.core, a, mode(kModes[m]));
          ASSERT_EQ(got, want) << from.core->name << "->" << to.core->name << " mode " << m << " a=0x" << std::hex << a;
          ++checked;
        }
    }
  std::cout << "  " << checked << " half conversions, 0 mismatches\n";
}

TEST(Cvt, EveryF16ToFp8AndEveryFp8ToF16) {
  for (uint32_t a = 0; a < 0x10000; ++a) {
    const double v = oracle::decode(oracle::kF16, a);
    ASSERT_EQ(fp::cvt_float(fp::kF16, fp::kE4M3, a, satfinite()), ref_e4m3_satfinite(v)) << std::hex << a;
    ASSERT_EQ(fp::cvt_float(fp::kF16, fp::kE5M2, a, satfinite()), ref_e5m2_satfinite(v)) << std::hex << a;
  }
  for (uint32_t c = 0; c < 0x100; ++c) {
    const double v4 = (c & 0x7f) == 0x7f ? NAN : e4m3_value(c);
    ASSERT_EQ(fp::cvt_float(fp::kE4M3, fp::kF16, c, mode(Rounding::rn)), ref_ieee(oracle::kF16, Rnd::rn, v4)) << c;
    const double v5 = oracle::decode(kE5M2Spec, c);
    ASSERT_EQ(fp::cvt_float(fp::kE5M2, fp::kF16, c, mode(Rounding::rn)), ref_ieee(oracle::kF16, Rnd::rn, v5)) << c;
  }
}

TEST(Cvt, RandomF32AndF64) {
  std::mt19937_64 rng(12);
  constexpr int kN = 1000000;
  for (int i = 0; i < kN; ++i) {
    const auto a = static_cast<uint32_t>(rng());
    const double v = f32_value(a);
    for (int m = 0; m < 4; ++m) {
      ASSERT_EQ(fp::cvt_float(fp::kF32, fp::kF16, a, mode(kModes[m])), ref_ieee(oracle::kF16, kRnd[m], v)) << a;
      ASSERT_EQ(fp::cvt_float(fp::kF32, fp::kBF16, a, mode(kModes[m])), ref_ieee(oracle::kBF16, kRnd[m], v)) << a;
    }
    ASSERT_EQ(fp::cvt_float(fp::kF32, fp::kE4M3, a, satfinite()), ref_e4m3_satfinite(v)) << std::hex << a;
    ASSERT_EQ(fp::cvt_float(fp::kF32, fp::kE5M2, a, satfinite()), ref_e5m2_satfinite(v)) << std::hex << a;
  }
  for (int i = 0; i < kN; ++i) {
    uint64_t a = rng();
    if (i & 1)
      a = (a & 0x800fffffffffffffull) |
          (static_cast<uint64_t>(0x3ff - 160 + (rng() % 320)) << 52);  // near f32/f16 range
    const double v = f64_value(a);
    for (int m = 0; m < 4; ++m) {
      ASSERT_EQ(fp::cvt_float(fp::kF64, fp::kF32, a, mode(kModes[m])), ref_ieee(oracle::kF32, kRnd[m], v)) << a;
      ASSERT_EQ(fp::cvt_float(fp::kF64, fp::kF16, a, mode(kModes[m])), ref_ieee(oracle::kF16, kRnd[m], v)) << a;
      ASSERT_EQ(fp::cvt_float(fp::kF64, fp::kBF16, a, mode(kModes[m])), ref_ieee(oracle::kBF16, kRnd[m], v)) << a;
    }
  }
}

// tf32 (8 exponent, 10 fraction bits) in the f32 container, low 13 bits zero.
constexpr oracle::Spec kTF32Spec{8, 10};
uint64_t ref_tf32(double v, int mode /* 0..3: rn rz rm rp, 4: rna */) {
  if (std::isnan(v)) return oracle::encode(kTF32Spec, NAN) << 13;
  if (mode < 4) return oracle::mul(kTF32Spec, kRnd[mode], v, 1.0) << 13;
  // Ties away: |v| / quantum + 1/2, truncated, is exact in double.
  const double a = std::fabs(v);
  if (a == 0 || std::isinf(a)) return oracle::encode(kTF32Spec, v) << 13;
  const int e = std::max(std::ilogb(a), -126);
  const double q = std::ldexp(1.0, e - 10);
  double r = std::floor(a / q + 0.5) * q;
  if (r >= 0x1p128) r = INFINITY;
  return oracle::encode(kTF32Spec, std::signbit(v) ? -r : r) << 13;
}

TEST(Cvt, RandomF32ToTf32) {
  std::mt19937_64 rng(90);
  for (int i = 0; i < 1000000; ++i) {
    auto a = static_cast<uint32_t>(rng());
    if (i % 4 == 0) a = (a & 0xffffe000) | 0x1000;  // exact ties
    if (i % 4 == 1) a |= 0x7f7fe000;                // near overflow
    const double v = f32_value(a);
    for (int m = 0; m < 4; ++m)
      ASSERT_EQ(fp::cvt_tf32(a, false, mode(kModes[m])), ref_tf32(v, m)) << std::hex << a << " mode " << m;
    ASSERT_EQ(fp::cvt_tf32(a, true, {}), ref_tf32(v, 4)) << std::hex << a << " rna";
  }
}

// ---- integers: host references

constexpr fp::IntRounding kIntModes[] = {fp::IntRounding::rni, fp::IntRounding::rzi, fp::IntRounding::rmi,
                                         fp::IntRounding::rpi};
double round_host(double v, int m) {
  switch (m) {
    case 0: return std::nearbyint(v);  // the default environment rounds to nearest even
    case 1: return std::trunc(v);
    case 2: return std::floor(v);
    default: return std::ceil(v);
  }
}

// PTX: NaN -> 0; out-of-range values saturate.
uint64_t ref_float_to_int(double v, int m, unsigned bits, bool is_signed) {
  if (std::isnan(v)) return 0;
  const __int128 lo = is_signed ? -(static_cast<__int128>(1) << (bits - 1)) : 0;
  const __int128 hi = is_signed ? (static_cast<__int128>(1) << (bits - 1)) - 1 : (static_cast<__int128>(1) << bits) - 1;
  const double r = round_host(v, m);
  __int128 n;
  if (r >= 0x1p100)
    n = hi;
  else if (r <= -0x1p100)
    n = lo;
  else
    n = static_cast<__int128>(r);
  if (n < lo) n = lo;
  if (n > hi) n = hi;
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return static_cast<uint64_t>(n) & mask;
}

struct IntType {
  unsigned bits;
  bool is_signed;
};
constexpr IntType kInts[] = {{8, false},  {8, true},  {16, false}, {16, true},
                             {32, false}, {32, true}, {64, false}, {64, true}};

TEST(Cvt, FloatToInt) {
  std::mt19937_64 rng(34);
  auto check = [&](const fp::Format& f, uint64_t a, double v) {
    for (const IntType& t : kInts)
      for (int m = 0; m < 4; ++m)
        ASSERT_EQ(fp::cvt_float_to_int(f, a, kIntModes[m], false, t.bits, t.is_signed),
                  ref_float_to_int(v, m, t.bits, t.is_signed))
            << f.name << " 0x" << std::hex << a << " bits " << std::dec << t.bits << " signed " << t.is_signed
            << " mode " << m;
  };
  for (uint32_t a = 0; a < 0x10000; ++a) check(fp::kF16, a, oracle::decode(oracle::kF16, a));
  for (uint32_t a = 0; a < 0x10000; ++a) check(fp::kBF16, a, oracle::decode(oracle::kBF16, a));
  for (int i = 0; i < 1000000; ++i) {
    auto a = static_cast<uint32_t>(rng());
    if (i & 1) a = (a & 0x807fffff) | ((110 + static_cast<uint32_t>(rng() % 60)) << 23);  // |v| in 2^-17 .. 2^42
    check(fp::kF32, a, f32_value(a));
    uint64_t b = rng();
    if (i & 1) b = (b & 0x800fffffffffffffull) | ((1000 + rng() % 80) << 52);  // |v| in 2^-23 .. 2^56
    check(fp::kF64, b, f64_value(b));
  }
}

TEST(Cvt, FloatToIntFtzFlushesF32Subnormals) {
  EXPECT_EQ(fp::cvt_float_to_int(fp::kF32, 0x00000001, fp::IntRounding::rpi, false, 32, true), 1u);
  EXPECT_EQ(fp::cvt_float_to_int(fp::kF32, 0x00000001, fp::IntRounding::rpi, true, 32, true), 0u);
  EXPECT_EQ(fp::cvt_float_to_int(fp::kF32, 0x80000001, fp::IntRounding::rmi, false, 32, true), 0xffffffffu);
}

TEST(Cvt, IntToFloat) {
  std::mt19937_64 rng(56);
  for (int i = 0; i < 1000000; ++i) {
    const uint64_t raw = rng() >> (rng() % 64);
    for (const IntType& t : kInts) {
      const uint64_t mask = t.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << t.bits) - 1;
      const uint64_t a = ((i & 3) == 3 ? ~raw : raw) & mask;
      __int128 x = a;
      if (t.is_signed && ((a >> (t.bits - 1)) & 1)) x -= static_cast<__int128>(1) << t.bits;
      // x = hi * 2^32 + lo, both parts exact doubles: one rounding of their sum.
      const auto hi = static_cast<int64_t>(x >> 32);
      const auto lo = static_cast<uint32_t>(x & 0xffffffff);
      for (const Row& to : {kF16Row, kBF16Row, kF32Row, kF64Row})
        for (int m = 0; m < 4; ++m) {
          const uint64_t want = oracle::add(to.spec, kRnd[m], std::ldexp(static_cast<double>(hi), 32), lo);
          ASSERT_EQ(fp::cvt_int_to_float(*to.core, a, t.bits, t.is_signed, mode(kModes[m])), want)
              << to.core->name << " 0x" << std::hex << a << std::dec << " bits " << t.bits << " mode " << m;
        }
    }
  }
}

TEST(Cvt, IntegralRoundingEveryF16) {
  for (uint32_t a = 0; a < 0x10000; ++a) {
    const double v = oracle::decode(oracle::kF16, a);
    for (int m = 0; m < 4; ++m) {
      const uint64_t want =
          std::isnan(v) ? oracle::encode(oracle::kF16, NAN) : oracle::encode(oracle::kF16, round_host(v, m));
      ASSERT_EQ(fp::cvt_integral(fp::kF16, a, kIntModes[m], {}), want) << std::hex << a << " mode " << m;
    }
  }
}

TEST(Cvt, IntToInt) {
  std::mt19937_64 rng(78);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t raw = rng() >> (rng() % 64);
    for (const IntType& from : kInts)
      for (const IntType& to : kInts)
        for (bool sat : {false, true}) {
          const uint64_t fmask = from.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << from.bits) - 1;
          const uint64_t a = ((i & 1) ? ~raw : raw) & fmask;
          __int128 x = a;
          if (from.is_signed && ((a >> (from.bits - 1)) & 1)) x -= static_cast<__int128>(1) << from.bits;
          const __int128 lo = to.is_signed ? -(static_cast<__int128>(1) << (to.bits - 1)) : 0;
          const __int128 hi = to.is_signed ? (static_cast<__int128>(1) << (to.bits - 1)) - 1
                                           : (static_cast<__int128>(1) << to.bits) - 1;
          if (sat) x = x < lo ? lo : x > hi ? hi : x;
          const uint64_t tmask = to.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << to.bits) - 1;
          ASSERT_EQ(integer::cvt_int(a, from.bits, from.is_signed, to.bits, to.is_signed, sat),
                    static_cast<uint64_t>(x) & tmask);
        }
  }
}

TEST(Cvt, ModifiersOnTheResult) {
  fp::CvtPolicy p = mode(Rounding::rn);
  p.relu = true;
  EXPECT_EQ(fp::cvt_float(fp::kF32, fp::kF16, 0xbf800000, p), 0x0000u);  // -1 -> +0
  EXPECT_EQ(fp::cvt_float(fp::kF32, fp::kF16, 0xffc00001, p), 0x7fffu);  // NaN -> canonical
  p = mode(Rounding::rn);
  p.satfinite = true;
  EXPECT_EQ(fp::cvt_float(fp::kF32, fp::kF16, 0x7f800000, p), 0x7bffu);  // inf -> max
  EXPECT_EQ(fp::cvt_float(fp::kF32, fp::kF16, 0xc8000000, p), 0xfbffu);  // -131072 -> -max
  p = mode(Rounding::rn);
  p.sat = true;
  EXPECT_EQ(fp::cvt_float(fp::kF32, fp::kF16, 0x7fc00000, p), 0x0000u);  // NaN -> +0
  EXPECT_EQ(fp::cvt_float(fp::kF32, fp::kF16, 0x40000000, p), 0x3c00u);  // 2 -> 1
  p = mode(Rounding::rp);
  p.ftz_in = true;
  EXPECT_EQ(fp::cvt_float(fp::kF32, fp::kF16, 0x00000001, p), 0x0000u);  // flushed before rounding up
  p.ftz_in = false;
  EXPECT_EQ(fp::cvt_float(fp::kF32, fp::kF16, 0x00000001, p), 0x0001u);
}

// The OCP MX rows without NaN or infinity (e2m3, e3m2: FP6; e2m1: FP4), by
// their definition: bias 2^(E-1) - 1, subnormals at E = 0, every other
// encoding a number.
struct MiniFloat {
  int e, m;
  double value(unsigned code) const {
    const int bias = (1 << (e - 1)) - 1;
    const unsigned be = (code >> m) & ((1u << e) - 1), f = code & ((1u << m) - 1);
    const double mag =
        be == 0 ? std::ldexp(f, 1 - bias - m) : std::ldexp((1u << m) + f, static_cast<int>(be) - bias - m);
    return (code >> (e + m)) & 1 ? -mag : mag;
  }
  // .rn.satfinite: nearest, ties to the even code, beyond the largest clamps;
  // NaN gives +max (the rows have no NaN; see fp/cvt.cc).
  uint64_t round(double v) const {
    const unsigned top = (1u << (e + m)) - 1;  // the largest magnitude code
    if (std::isnan(v)) return top;
    const unsigned sign = std::signbit(v) ? 1u << (e + m) : 0;
    const double a = std::fabs(v);
    if (a >= value(top)) return sign | top;
    unsigned c = 0;
    while (value(c + 1) <= a) ++c;
    if (value(c) == a) return sign | c;
    const double mid = (value(c) + value(c + 1)) / 2;
    return sign | (a < mid ? c : a > mid ? c + 1 : ((c & 1) ? c + 1 : c));
  }
};

TEST(Cvt, Fp6Fp4AndUe8m0) {
  const std::pair<const fp::Format*, MiniFloat> rows[] = {
      {&fp::kE2M3, {2, 3}}, {&fp::kE3M2, {3, 2}}, {&fp::kE2M1, {2, 1}}};
  std::mt19937_64 rng(21);
  for (const auto& [core, ref] : rows) {
    for (unsigned c = 0; c < (2u << (ref.e + ref.m)); ++c)  // every value to f16, exactly
      ASSERT_EQ(fp::cvt_float(*core, fp::kF16, c, mode(Rounding::rn)), ref_ieee(oracle::kF16, Rnd::rn, ref.value(c)))
          << core->name << " " << c;
    for (int i = 0; i < 200000; ++i) {
      auto a = static_cast<uint32_t>(rng());
      if (i & 1) a = (a & 0x80ffffff) | ((116 + static_cast<uint32_t>(rng() % 16)) << 23);  // 2^-11 .. 2^4
      ASSERT_EQ(fp::cvt_float(fp::kF32, *core, a, satfinite()), ref.round(f32_value(a)))
          << core->name << std::hex << " " << a;
    }
  }
  // ue8m0 (2^(E-127), 0xff NaN) to bf16: exact, 2^-127 as a bf16 subnormal.
  for (unsigned c = 0; c < 0x100; ++c) {
    const double v = c == 0xff ? NAN : std::ldexp(1.0, static_cast<int>(c) - 127);
    ASSERT_EQ(fp::cvt_float(fp::kUE8M0, fp::kBF16, c, mode(Rounding::rn)), ref_ieee(oracle::kBF16, Rnd::rn, v)) << c;
  }
  // f32 to ue8m0: the power of two below (.rz) or above (.rp) a positive value.
  for (int i = 0; i < 200000; ++i) {
    const auto a = static_cast<uint32_t>(rng()) & 0x7f7fffff;  // positive finite
    const double v = f32_value(a);
    if (v < 0x1p-127) continue;
    const int e = std::ilogb(v);
    const bool exact = v == std::ldexp(1.0, e);
    ASSERT_EQ(fp::cvt_float(fp::kF32, fp::kUE8M0, a, mode(Rounding::rz)), static_cast<uint64_t>(e + 127))
        << std::hex << a;
    const uint64_t up = static_cast<uint64_t>(e + 127 + (exact ? 0 : 1));
    ASSERT_EQ(fp::cvt_float(fp::kF32, fp::kUE8M0, a, mode(Rounding::rp)), up) << std::hex << a;  // 2^128: 0xff (NaN)
  }
}

// Through the decoder and executor: packing order, widths, register extension.
uint64_t run(const char* mnemonic, std::initializer_list<uint64_t> sources) {
  isa::Instr in;
  isa::Diagnostic d;
  EXPECT_TRUE(isa::decode(mnemonic, static_cast<unsigned>(sources.size()), 1, in, d)) << mnemonic << ": " << d.message;
  uint64_t src[5] = {};
  size_t k = 0;
  for (uint64_t s : sources) src[k++] = s;
  return exec::execute(in, src, false).value;
}

TEST(Cvt, ExecutorForms) {
  EXPECT_EQ(run("cvt.rn.f16x2.f32", {0x3f800000, 0x40000000}), 0x3c004000u);  // first source high
  EXPECT_EQ(run("cvt.rz.bf16x2.f32", {0x3f800000, 0xc0000000}), 0x3f80c000u);
  EXPECT_EQ(run("cvt.rn.satfinite.e4m3x2.f32", {0x44000000, 0x7fc00000}), 0x7e7fu);  // 512 -> 448, NaN
  EXPECT_EQ(run("cvt.rn.satfinite.e5m2x2.f16x2", {0x7c00fc00}), 0x7bfbu);            // +-inf -> +-max
  EXPECT_EQ(run("cvt.rn.f16x2.e4m3x2", {0x3878}), 0x3c005c00u);                      // 1, 256
  EXPECT_EQ(run("cvt.rn.relu.f16x2.e5m2x2", {0xbc3c}), 0x00003c00u);                 // -1 -> 0, 1
  EXPECT_EQ(run("cvt.rni.s32.f32", {0xc0200000}), 0xfffffffeu);                      // -2.5 -> -2
  EXPECT_EQ(run("cvt.rzi.s32.f64", {0x7ff8000000000000}), 0u);                       // NaN -> 0
  EXPECT_EQ(run("cvt.rzi.u8.f32", {0x44000000}), 0x00ffu);                           // saturates
  EXPECT_EQ(run("cvt.rzi.s8.f32", {0xc4000000}), 0xff80u);                           // -128, sign-extended
  EXPECT_EQ(run("cvt.sat.s8.s32", {0xffffff00}), 0xff80u);
  EXPECT_EQ(run("cvt.u32.s8", {0x00ff}), 0xffffffffu);  // sign-extends the source
  EXPECT_EQ(run("cvt.rn.f32.u64", {0xffffffffffffffff}), 0x5f800000u);
  EXPECT_EQ(run("cvt.rmi.f32.f32", {0xbf000000}), 0xbf800000u);
  EXPECT_EQ(run("cvt.ftz.f32.f32", {0x00000001}), 0u);
  EXPECT_EQ(run("cvt.ftz.f64.f32", {0x80000001}), 0x8000000000000000u);
  EXPECT_EQ(run("cvt.rna.tf32.f32", {0x3f801000}), 0x3f802000u);
  EXPECT_EQ(run("cvt.rn.tf32.f32", {0x3f801000}), 0x3f800000u);
  EXPECT_EQ(run("cvt.rn.satfinite.e2m1x2.f32", {0x40c00000, 0xc1000000}), 0x7fu);  // 6, -8 -> -6
  EXPECT_EQ(run("cvt.rn.f16x2.e2m1x2", {0x24}), 0x3c004000u);                      // 1, 2
  EXPECT_EQ(run("cvt.rp.ue8m0x2.f32", {0x3f800001, 0x3f800000}), 0x807fu);         // 2, 1
  EXPECT_EQ(run("cvt.rn.bf16x2.ue8m0x2", {0x7f80}), 0x3f804000u);
  // cvt.pack.sat: a above b, c's low bits above both
  EXPECT_EQ(run("cvt.pack.sat.u8.s32.b32", {0x00000100, 0xffffff00, 0x0000abcd}), 0xabcdff00u);
  EXPECT_EQ(run("cvt.pack.sat.s16.s32", {0x00010000, 0x80000000}), 0x7fff8000u);
  EXPECT_EQ(run("cvt.pack.sat.s2.s32.b32", {0x1, 0xfffffffe, 0xffffffff}), 0xfffffff6u);
}

// .rs: which random bits each value reads (PTX ISA, cvt). Every value sits
// half a destination ulp above a grid point, so it rounds up exactly when
// its random bits are at least half their range.
TEST(Cvt, StochasticRoundingTakesEachValuesRandomBits) {
  // f16x2: 13 LSBs of the upper half for a (bits 15:13 not read), of the lower for b
  EXPECT_EQ(run("cvt.rs.f16x2.f32", {0x3f801000, 0x3f801000, 0xf000e000}), 0x3c013c00u);
  EXPECT_EQ(run("cvt.rs.f16x2.f32", {0x3f801000, 0x3f801000, 0x0fff1000}), 0x3c003c01u);
  // bf16x2: the upper half for a, the lower for b
  EXPECT_EQ(run("cvt.rs.bf16x2.f32", {0x3f808000, 0x3f808000, 0x80007fff}), 0x3f813f80u);
  // e4m3x4 (1.0625 = 1 + half an ulp): a [31:24], b [23:16], e [15:8], f [7:0]
  EXPECT_EQ(run("cvt.rs.satfinite.e4m3x4.f32", {0x3f880000, 0x3f880000, 0x3f880000, 0x3f880000, 0x807f7f80}),
            0x39383839u);
  // e2m1x4 (1.25 = 1 + half an ulp): a [31:24], e [23:16], b [15:8], f [7:0]
  EXPECT_EQ(run("cvt.rs.satfinite.e2m1x4.f32", {0x3fa00000, 0x3fa00000, 0x3fa00000, 0x3fa00000, 0x80807f7f}), 0x3232u);
  // e3m2x4 (1.125): six bits a byte, two zero bits above each
  EXPECT_EQ(run("cvt.rs.satfinite.e3m2x4.f32", {0x3f900000, 0x3f900000, 0x3f900000, 0x3f900000, 0x807f7f80}),
            0x0d0c0c0du);
  // NaN, +-inf and overflow under .satfinite; .relu
  EXPECT_EQ(run("cvt.rs.satfinite.e4m3x4.f32", {0x7fc00000, 0x7f800000, 0xff800000, 0x44000000, 0}), 0x7f7efe7eu);
  EXPECT_EQ(run("cvt.rs.relu.satfinite.e5m2x4.f32", {0xbf800000, 0x3f800000, 0x80000000, 0x7fc00000, 0}), 0x003c007fu);
  // f16 without .satfinite: 65520 (max + half an ulp) overflows to inf when it carries, else max
  EXPECT_EQ(run("cvt.rs.f16x2.f32", {0x477ff000, 0x477ff000, 0x10000fff}), 0x7c007bffu);
  EXPECT_EQ(run("cvt.rs.satfinite.f16x2.f32", {0x477ff000, 0x7f800000, 0x1fff0000}), 0x7bff7bffu);
}

// ---- Stochastic rounding (.rs) against MPFR.
// The PTX ISA's rule: ".rs ... the result is rounded in the direction toward
// zero or away from zero based on the carry out of the integer addition of
// the supplied random bits (rbits) to the truncated off (discarded) bits of
// mantissa from the input". Restated on values and computed here with MPFR,
// sharing nothing with src/fp: with u the destination's ulp at |x| (the
// subnormal quantum below its normal range) and K random bits r,
// y = |x| + r * u * 2^-K is truncated to a multiple of u; the result moved
// away from zero exactly when that multiple exceeds |x| truncated. Beyond the
// largest finite value the result overflows in that direction (IEEE: to
// infinity away from zero, to max-finite towards zero); .satfinite clamps,
// .relu takes negatives to +0; NaN gives the canonical NaN (none in the
// FP6/FP4 rows: +max, ptxfu's choice for their .rn forms too).
struct SmallFormat {
  const fp::Format* core;
  int e, m, K;
  bool ieee;     // all-ones exponent is inf/NaN (f16, bf16, e5m2)
  uint64_t nan;  // what a NaN becomes
  int bias() const { return (1 << (e - 1)) - 1; }
  int emin() const { return 1 - bias(); }
  // Value of a non-negative finite code (e4m3's top exponent holds numbers).
  double value(unsigned code) const {
    const unsigned E = (code >> m) & ((1u << e) - 1), M = code & ((1u << m) - 1);
    return E == 0 ? std::ldexp(M, emin() - m) : std::ldexp((1u << m) + M, static_cast<int>(E) - bias() - m);
  }
  unsigned max_code() const {
    if (ieee) return ((((1u << e) - 2) << m) | ((1u << m) - 1));
    return core == &fp::kE4M3 ? 0x7e : (1u << (e + m)) - 1;
  }
  uint64_t sign_bit() const { return uint64_t{1} << (e + m); }
  uint64_t inf(bool neg) const {  // an infinite result: inf, e4m3's NaN, the FP6/FP4 max
    if (ieee) return (neg ? sign_bit() : 0) | (((1u << e) - 1) << m);
    return core == &fp::kE4M3 ? (neg ? sign_bit() : 0) | 0x7f : (neg ? sign_bit() : 0) | max_code();
  }
  uint64_t encode(double v) const {  // v >= 0 on the grid, <= max
    if (ieee) return oracle::encode(oracle::Spec{e, m}, v);
    for (unsigned c = 0; c <= max_code(); ++c)
      if (value(c) == v) return c;
    ADD_FAILURE() << core->name << ": " << v << " is not on the grid";
    return 0;
  }
};
const SmallFormat kRsFormats[] = {
    {&fp::kF16, 5, 10, 13, true, 0x7fff}, {&fp::kBF16, 8, 7, 16, true, 0x7fff}, {&fp::kE4M3, 4, 3, 8, false, 0x7f},
    {&fp::kE5M2, 5, 2, 8, true, 0x7f},    {&fp::kE2M3, 2, 3, 8, false, 0x1f},   {&fp::kE3M2, 3, 2, 8, false, 0x1f},
    {&fp::kE2M1, 2, 1, 8, false, 0x7},
};

std::string fmt_hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// |x| truncated to the grid after adding r * u * 2^-K; `carry` whether it moved.
double rs_truncate(const SmallFormat& f, double ax, uint32_t r, bool& carry) {
  const int e = std::max(std::ilogb(ax), f.emin());
  const int ulp = e - f.m;  // u = 2^ulp
  mpfr_t t, q0, q1;
  mpfr_inits2(512, t, q0, q1, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(t, ax, MPFR_RNDN);         // exact
  mpfr_mul_2si(t, t, -ulp, MPFR_RNDN);  // |x| / u
  mpfr_floor(q0, t);
  mpfr_set_ui(q1, r, MPFR_RNDN);
  mpfr_mul_2si(q1, q1, -f.K, MPFR_RNDN);
  mpfr_add(q1, q1, t, MPFR_RNDN);  // exact at 512 bits
  mpfr_floor(q1, q1);
  carry = mpfr_cmp(q1, q0) > 0;
  const double v = std::ldexp(mpfr_get_d(q1, MPFR_RNDN), ulp);  // q1 < 2^(m + 2): exact
  mpfr_clears(t, q0, q1, static_cast<mpfr_ptr>(nullptr));
  return v;
}

uint64_t ref_rs(const SmallFormat& f, uint32_t a, uint32_t r, bool satfinite, bool relu) {
  const double x = f32_value(a);
  if (std::isnan(x)) return f.nan;
  const bool neg = std::signbit(x);
  if (relu && neg) return 0;
  const double ax = std::fabs(x);
  uint64_t mag;
  if (std::isinf(ax)) {
    mag = satfinite ? f.max_code() : f.inf(false);
  } else if (ax == 0) {
    mag = 0;
  } else {
    bool carry = false;
    const double v = rs_truncate(f, ax, r, carry);
    if (v > f.value(f.max_code()))
      mag = satfinite || !carry ? f.max_code() : f.inf(false);
    else
      mag = f.encode(v);
  }
  return (neg ? f.sign_bit() : 0) | mag;
}

TEST(Cvt, StochasticRoundingAgainstMpfr) {
  std::mt19937_64 rng(87);
  for (const SmallFormat& f : kRsFormats) {
    uint64_t checked = 0, bad = 0, ups = 0;
    std::string first;
    const uint32_t rmax = (uint32_t{1} << f.K) - 1;
    // f32 exponents from below the destination's subnormals to above its range
    const int lo = f.emin() - f.m - 4 + 127, hi = f.emin() + 2 * f.bias() + 2 + 127;
    for (int i = 0; i < 1000000; ++i) {
      auto a = static_cast<uint32_t>(rng());
      if (i % 8)
        a = (a & 0x807fffff) |
            (static_cast<uint32_t>(std::clamp<int>(lo + static_cast<int>(rng() % (hi - lo + 1)), 0, 255)) << 23);
      if (i % 64 == 1)
        a = (a & 0x80000000) | (rng() % 3 == 0 ? 0x7f800000 : rng() % 2 ? 0x7fc00000 : 0);  // inf, NaN, 0
      if (i % 16 == 2) a &= 0xfffc0000;  // few significant bits: exact and tie-like inputs
      // r: random, the extremes, and the two sides of this input's carry boundary
      uint32_t r = static_cast<uint32_t>(rng()) & rmax;
      if (i % 5 == 1) r = rng() % 2 ? 0 : rmax;
      if (i % 5 == 2 && !std::isnan(f32_value(a)) && !std::isinf(f32_value(a)) && f32_value(a) != 0) {
        bool carry = false;  // the smallest r that carries, found by bisection on the oracle
        uint32_t low = 0, high = rmax + 1;
        while (low < high) {
          const uint32_t mid = (low + high) / 2;
          rs_truncate(f, std::fabs(f32_value(a)), mid, carry);
          if (carry)
            high = mid;
          else
            low = mid + 1;
        }
        r = low > rmax ? rmax : low - (rng() % 2 && low > 0 ? 1 : 0);
      }
      const bool sat = f.ieee && f.core != &fp::kE5M2 ? (i & 1) != 0 : true;  // the x4 forms require .satfinite
      const bool relu = (i & 2) != 0;
      fp::CvtPolicy p;
      p.satfinite = sat;
      p.relu = relu;
      p.random = {r, static_cast<unsigned>(f.K)};
      const uint64_t got = fp::cvt_float(fp::kF32, *f.core, a, p);
      const uint64_t want = ref_rs(f, a, r, sat, relu);
      ++checked;
      ups += got != fp::cvt_float(fp::kF32, *f.core, a, [&] {
               fp::CvtPolicy q = p;
               q.rnd = Rounding::rz;
               q.random = {};
               return q;
             }());
      if (got != want && bad++ == 0)
        first = fmt_hex(a) + " r=" + fmt_hex(r) + (sat ? " satfinite" : "") + (relu ? " relu" : "") + ": got " +
                fmt_hex(got) + ", want " + fmt_hex(want);
    }
    EXPECT_EQ(bad, 0u) << f.core->name << ": " << bad << " of " << checked << " differ; first " << first;
    EXPECT_GT(ups, checked / 10) << f.core->name << ": too few results differ from .rz to test the carry";
  }
}

// Unbiased: over every r, an input rounds away from zero for exactly D of
// the 2^13 values, D its top 13 dropped bits (f32 -> f16, normal results;
// the integer arithmetic here reads the f32 pattern directly).
TEST(Cvt, StochasticRoundingCountsTheDroppedBits) {
  std::mt19937_64 rng(88);
  for (int i = 0; i < 300; ++i) {
    const uint32_t a = (static_cast<uint32_t>(rng()) & 0x807fffff) | ((113 + static_cast<uint32_t>(rng() % 30)) << 23);
    const uint32_t dropped = a & 0x1fff;  // f16 keeps 10 of f32's 23 fraction bits
    fp::CvtPolicy rz;
    rz.rnd = Rounding::rz;
    const uint64_t down = fp::cvt_float(fp::kF32, fp::kF16, a, rz);
    uint32_t ups = 0;
    for (uint32_t r = 0; r < 0x2000; ++r) {
      fp::CvtPolicy p;
      p.random = {r, 13};
      const uint64_t got = fp::cvt_float(fp::kF32, fp::kF16, a, p);
      ups += got != down;
      ASSERT_TRUE(got == down || got == down + 1) << fmt_hex(a) << " r=" << r;
    }
    EXPECT_EQ(ups, dropped) << fmt_hex(a);
  }
}

// Every f32 to f16, bf16, e4m3, e5m2 (rn, .satfinite for FP8). Long:
// scripts/cvt-exhaustive.sh runs it; PTXFU_CVT_DEST picks one destination.
TEST(Cvt, DISABLED_EveryF32) {
  const char* env = std::getenv("PTXFU_CVT_DEST");
  const std::string only = env ? env : "";
  const uint64_t end =
      std::getenv("PTXFU_CVT_COUNT") ? std::strtoull(std::getenv("PTXFU_CVT_COUNT"), nullptr, 0) : (uint64_t{1} << 32);
  uint64_t mismatches = 0;
  for (uint64_t i = 0; i < end; ++i) {
    const auto a = static_cast<uint32_t>(i);
    const double v = f32_value(a);
    if (only.empty() || only == "f16")
      mismatches += fp::cvt_float(fp::kF32, fp::kF16, a, mode(Rounding::rn)) != ref_ieee(oracle::kF16, Rnd::rn, v);
    if (only.empty() || only == "bf16")
      mismatches += fp::cvt_float(fp::kF32, fp::kBF16, a, mode(Rounding::rn)) != ref_ieee(oracle::kBF16, Rnd::rn, v);
    if (only.empty() || only == "e4m3")
      mismatches += fp::cvt_float(fp::kF32, fp::kE4M3, a, satfinite()) != ref_e4m3_satfinite(v);
    if (only.empty() || only == "e5m2")
      mismatches += fp::cvt_float(fp::kF32, fp::kE5M2, a, satfinite()) != ref_e5m2_satfinite(v);
  }
  EXPECT_EQ(mismatches, 0u);
  std::cout << "  " << end << " f32 inputs (" << (only.empty() ? "all four" : only) << "), " << mismatches
            << " mismatches\n";
}

}  // namespace
}  // namespace ptxfu::fptest
