#include "approx/mufu.h"

#include <cmath>

#include "approx/tables.h"

namespace ptxfu::approx {
namespace {

using fp::Class;
using fp::Format;
using fp::Rounding;
using fp::Unpacked;

// The upper word of an f64 as the unit sees it: 11 exponent bits, 20 fraction
// bits. Rounding into this row produces the result's upper word.
constexpr Format kF64Hi{"f64hi", 11, 20};

constexpr int kFrac = 30;       // fixed-point fraction bits of the f32-class tables
constexpr int kTanhFrac = 26;   // ... of the tanh tables
constexpr int kEx2InFrac = 32;  // fraction bits of ex2's fixed-point argument
constexpr int kEx2InInt = 9;    // |x| saturates at 2^9 (overflows/underflows every format)
constexpr int kTurnFrac = 32;   // fraction bits of sin/cos's argument in turns

uint64_t qnan(const Format& f) { return f.exp_mask() | f.frac_mask(); }

uint64_t round_fixed(const Format& f, bool sign, int exp, uint64_t y) {
  return fp::round_pack(f, sign, exp, y, false, Rounding::rn);
}

uint64_t flush(const Format& f, uint64_t bits) { return fp::is_subnormal(f, bits) ? (bits & f.sign_mask()) : bits; }

int msb(uint64_t v) { return 63 - __builtin_clzll(v); }

// A finite nonzero value as (1 + m23 / 2^23) * 2^e; fraction bits below the
// 23 kept ones are dropped (the unit's datapath is 24 bits wide).
struct Norm {
  int e;
  uint32_t m23;
};

Norm normalize(const Unpacked& u) {
  const int p = msb(u.sig);
  const uint64_t frac = u.sig & ~(uint64_t{1} << p);
  const uint64_t m = p >= 23 ? frac >> (p - 23) : frac << (23 - p);
  return {u.exp + p, static_cast<uint32_t>(m)};
}

bool is_zero_in(const Unpacked& u, bool ftz) { return u.cls == Class::zero || (ftz && u.cls == Class::subnormal); }

// Fixed-point 1/(1.m) for the significand fraction m23: value y * 2^-kFrac.
int64_t rcp_sig(uint32_t m23) { return mufu_tables().rcp.eval(m23, 23); }

// sqrt or 1/sqrt of (1.m) * 2^e as y * 2^(scale - kFrac).
struct Scaled {
  int64_t y;
  int scale;
};

Scaled root(const Norm& n, bool reciprocal) {
  const MufuTables& t = mufu_tables();
  const bool odd = (n.e & 1) != 0;
  const int half = n.e >> 1;  // floor(e / 2)
  const QuadTable& tab = reciprocal ? (odd ? t.rsqrt_odd : t.rsqrt_even) : (odd ? t.sqrt_odd : t.sqrt_even);
  return {tab.eval(n.m23, 23), reciprocal ? -half : half};
}

// Round-to-nearest product of two values of format f (IEEE special values).
uint64_t mul_rn(const Format& f, uint64_t a, uint64_t b) {
  const Unpacked ua = fp::unpack(f, a);
  const Unpacked ub = fp::unpack(f, b);
  const bool s = ua.sign != ub.sign;
  if (ua.cls == Class::nan || ub.cls == Class::nan) return qnan(f);
  if (ua.cls == Class::inf || ub.cls == Class::inf) {
    if (ua.cls == Class::zero || ub.cls == Class::zero) return qnan(f);
    return f.inf(s);
  }
  if (ua.cls == Class::zero || ub.cls == Class::zero) return f.zero(s);
  return fp::round_pack(f, s, ua.exp + ub.exp, fp::u128{ua.sig} * ub.sig, false, Rounding::rn);
}

// 2^x's argument as a signed fixed-point number with kEx2InFrac fraction
// bits, |x| saturated at 2^kEx2InInt; bits below 2^-kEx2InFrac are dropped.
int64_t ex2_fixed(const Unpacked& u) {
  const int top = msb(u.sig) + u.exp;
  uint64_t mag;
  if (top >= kEx2InInt) {
    mag = uint64_t{1} << (kEx2InInt + kEx2InFrac);
  } else if (u.exp + kEx2InFrac >= 0) {
    mag = u.sig << (u.exp + kEx2InFrac);
  } else {
    const int sh = -(u.exp + kEx2InFrac);
    mag = sh >= 64 ? 0 : u.sig >> sh;
  }
  return u.sign ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
}

// |x| / 2pi in turns: exactly p * 2^exp with 1/(2 pi) held as a 63-bit
// fixed-point constant (scaled by 2^65) generated in long double, and its
// fraction r with kTurnFrac fraction bits.
struct Turns {
  fp::u128 p;
  int exp;
  uint64_t r;
};

Turns turns(const Unpacked& u) {
  static const uint64_t k_inv_2pi = static_cast<uint64_t>(std::llround(std::ldexp(0.5L / std::acos(-1.0L), 65)));
  Turns t{fp::u128{u.sig} * k_inv_2pi, u.exp - 65, 0};
  const int sh = t.exp + kTurnFrac;
  const uint64_t mask = (uint64_t{1} << kTurnFrac) - 1;
  if (sh >= 0) {
    t.r = sh >= kTurnFrac ? 0 : static_cast<uint64_t>(t.p << sh) & mask;
  } else {
    t.r = -sh >= 128 ? 0 : static_cast<uint64_t>(t.p >> -sh) & mask;
  }
  return t;
}

int msb128(fp::u128 v) {
  const auto hi = static_cast<uint64_t>(v >> 64);
  return hi ? 64 + msb(hi) : msb(static_cast<uint64_t>(v));
}

// sin (cosine = false) or cos of 2 pi * r: the quadrant picks the function
// of the quarter turn u in [0, 1) and the sign. sin(2 pi r) for quadrants
// 0..3 is S(u), C(u), -S(u), -C(u); cos shifts by one quadrant.
// S(u) = u * sinc_q(u); C(u) = cos_q(u).
uint64_t sincos_turns(const Format& f, const Turns& t, bool cosine, bool negate) {
  const MufuTables& tab = mufu_tables();
  constexpr int kU = kTurnFrac - 2;  // fraction bits of u
  const unsigned q = static_cast<unsigned>(t.r >> kU) + (cosine ? 1 : 0);
  const bool neg = ((q & 2) != 0) != negate;
  const uint64_t u = t.r & ((uint64_t{1} << kU) - 1);
  if (q & 1) {
    int64_t y = tab.cos_q.eval(u, kU);
    if (y < 0) y = 0;
    return round_fixed(f, neg, -kFrac, static_cast<uint64_t>(y));
  }
  // S(u): while |x| / 2pi < 1/4, u = 4 |x| / 2pi keeps its leading 32 bits
  // wherever they lie (so sin(x) ~ x for small x, subnormals included);
  // otherwise u is the kU-bit fixed-point fraction.
  uint64_t us = u;
  int ue = -kU;
  if (!cosine && msb128(t.p) + t.exp < -2) {
    const int drop = msb128(t.p) > 31 ? msb128(t.p) - 31 : 0;
    us = static_cast<uint64_t>(t.p >> drop);
    ue = t.exp + 2 + drop;
  }
  const int to_fixed = ue + kU;  // us * 2^to_fixed is u with kU fraction bits
  const uint64_t ufix = to_fixed >= 0 ? us << to_fixed : (-to_fixed >= 64 ? 0 : us >> -to_fixed);
  const auto g = static_cast<uint64_t>(tab.sinc_q.eval(ufix, kU));
  return round_fixed(f, neg, ue - kFrac, us * g);
}

}  // namespace

uint64_t rcp_approx(const Format& f, uint64_t a, bool ftz) {
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan) return qnan(f);
  if (u.cls == Class::inf) return f.zero(u.sign);
  if (is_zero_in(u, ftz)) return f.inf(u.sign);
  const Norm n = normalize(u);
  const uint64_t r = round_fixed(f, u.sign, -n.e - kFrac, rcp_sig(n.m23));
  return ftz ? flush(f, r) : r;
}

uint64_t sqrt_approx(const Format& f, uint64_t a, bool ftz) {
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan) return qnan(f);
  if (is_zero_in(u, ftz)) return f.zero(u.sign);
  if (u.sign) return qnan(f);
  if (u.cls == Class::inf) return f.inf(false);
  const Scaled s = root(normalize(u), false);
  return round_fixed(f, false, s.scale - kFrac, s.y);
}

uint64_t rsqrt_approx(const Format& f, uint64_t a, bool ftz) {
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan) return qnan(f);
  if (is_zero_in(u, ftz)) return f.inf(u.sign);
  if (u.sign) return qnan(f);
  if (u.cls == Class::inf) return f.zero(false);
  const Scaled s = root(normalize(u), true);
  const uint64_t r = round_fixed(f, false, s.scale - kFrac, s.y);
  return ftz ? flush(f, r) : r;
}

uint64_t sin_approx(const Format& f, uint64_t a, bool ftz) {
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan || u.cls == Class::inf) return qnan(f);
  if (is_zero_in(u, ftz)) return f.zero(u.sign);
  const uint64_t r = sincos_turns(f, turns(u), false, u.sign);  // sin(-x) = -sin(x)
  return ftz ? flush(f, r) : r;
}

uint64_t cos_approx(const Format& f, uint64_t a, bool ftz) {
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan || u.cls == Class::inf) return qnan(f);
  if (is_zero_in(u, ftz)) return f.one(false);
  const uint64_t r = sincos_turns(f, turns(u), true, false);  // cos(-x) = cos(x)
  return ftz ? flush(f, r) : r;
}

uint64_t lg2_approx(const Format& f, uint64_t a, bool ftz) {
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan) return qnan(f);
  if (is_zero_in(u, ftz)) return f.inf(true);
  if (u.sign) return qnan(f);
  if (u.cls == Class::inf) return f.inf(false);
  const Norm n = normalize(u);
  // log2(x) = e + log2(1.m) as one fixed-point sum.
  const int64_t total = static_cast<int64_t>(n.e) * (int64_t{1} << kFrac) + mufu_tables().lg2.eval(n.m23, 23);
  const bool neg = total < 0;
  return round_fixed(f, neg, -kFrac, static_cast<uint64_t>(neg ? -total : total));
}

uint64_t ex2_approx(const Format& f, uint64_t a, bool ftz) {
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan) return qnan(f);
  if (u.cls == Class::inf) return u.sign ? f.zero(false) : f.inf(false);
  if (is_zero_in(u, ftz)) return f.one(false);
  // 2^x = 2^floor(x) * 2^frac(x).
  const int64_t x = ex2_fixed(u);
  const int n = static_cast<int>(x >> kEx2InFrac);
  const uint64_t fr = static_cast<uint64_t>(x) & ((uint64_t{1} << kEx2InFrac) - 1);
  const uint64_t r = round_fixed(f, false, n - kFrac, mufu_tables().ex2.eval(fr, kEx2InFrac));
  return ftz ? flush(f, r) : r;
}

uint64_t tanh_approx(const Format& f, uint64_t a) {
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan) return qnan(f);
  if (u.cls == Class::inf) return f.one(u.sign);
  if (u.cls == Class::zero) return a;
  const Norm n = normalize(u);
  if (n.e < kTanhMinExp) return a;  // |x| < 2^-8: tanh(x) = x within 2^-17.5 relative
  if (n.e >= kTanhMaxExp) return f.one(u.sign);
  const int64_t y = mufu_tables().tanh[static_cast<size_t>(n.e - kTanhMinExp)].eval(n.m23, 23);
  return round_fixed(f, u.sign, -kTanhFrac, y);
}

uint32_t div_approx_f32(uint32_t a, uint32_t b, bool ftz) {
  const Format& f = fp::kF32;
  const uint64_t fa = ftz ? flush(f, a) : a;
  const uint64_t fb = ftz ? flush(f, b) : b;
  const uint64_t r = flush(f, rcp_approx(f, fb, ftz));  // the unit flushes its output
  const uint64_t q = mul_rn(f, fa, r);
  return static_cast<uint32_t>(ftz ? flush(f, q) : q);
}

uint32_t div_full_f32(uint32_t a, uint32_t b, bool ftz) {
  const Format& f = fp::kF32;
  const Unpacked ua = fp::unpack(f, ftz ? flush(f, a) : a);
  const Unpacked ub = fp::unpack(f, ftz ? flush(f, b) : b);
  const bool s = ua.sign != ub.sign;
  if (ua.cls == Class::nan || ub.cls == Class::nan) return static_cast<uint32_t>(qnan(f));
  if (ua.cls == Class::inf) {
    return static_cast<uint32_t>(ub.cls == Class::inf ? qnan(f) : f.inf(s));
  }
  if (ub.cls == Class::inf) return static_cast<uint32_t>(f.zero(s));
  if (ub.cls == Class::zero) {
    return static_cast<uint32_t>(ua.cls == Class::zero ? qnan(f) : f.inf(s));
  }
  if (ua.cls == Class::zero) return static_cast<uint32_t>(f.zero(s));
  // Reciprocal of b's significand, rounded to f32, then one rounded product
  // with the exponents kept apart, so no intermediate over- or underflows.
  const Norm nb = normalize(ub);
  const Unpacked ur = fp::unpack(f, round_fixed(f, false, -kFrac, rcp_sig(nb.m23)));
  const uint64_t q = fp::round_pack(f, s, ua.exp + ur.exp - nb.e, fp::u128{ua.sig} * ur.sig, false, Rounding::rn);
  return static_cast<uint32_t>(ftz ? flush(f, q) : q);
}

// The f64 .ftz forms work on the operand's upper word in the 1.11.20 format
// (row kF64Hi) and write the result's upper word; NaN results are the
// upper word's canonical NaN, 0x7fffffff00000000 as a whole.
uint64_t rcp_approx_ftz_f64(uint64_t a) {
  const Unpacked u = fp::unpack(kF64Hi, a >> 32);
  uint64_t hi;
  if (u.cls == Class::nan) {
    hi = qnan(kF64Hi);
  } else if (u.cls == Class::inf) {
    hi = kF64Hi.zero(u.sign);
  } else if (is_zero_in(u, true)) {
    hi = kF64Hi.inf(u.sign);
  } else {
    const Norm n = normalize(u);  // 20 fraction bits, padded to 23
    hi = flush(kF64Hi, round_fixed(kF64Hi, u.sign, -n.e - kFrac, rcp_sig(n.m23)));
  }
  return hi << 32;
}

uint64_t rsqrt_approx_ftz_f64(uint64_t a) {
  const Unpacked u = fp::unpack(kF64Hi, a >> 32);
  uint64_t hi;
  if (u.cls == Class::nan) {
    hi = qnan(kF64Hi);
  } else if (is_zero_in(u, true)) {
    hi = kF64Hi.inf(u.sign);
  } else if (u.sign) {
    hi = qnan(kF64Hi);
  } else if (u.cls == Class::inf) {
    hi = kF64Hi.zero(false);
  } else {
    const Scaled s = root(normalize(u), true);
    hi = flush(kF64Hi, round_fixed(kF64Hi, false, s.scale - kFrac, s.y));
  }
  return hi << 32;
}

uint64_t rsqrt_approx_f64(uint64_t a) {
  const Format& f = fp::kF64;
  const Unpacked u = fp::unpack(f, a);
  if (u.cls == Class::nan) return qnan(f);
  if (u.cls == Class::zero) return f.inf(u.sign);
  if (u.sign) return qnan(f);
  if (u.cls == Class::inf) return f.zero(false);
  const long double x = std::ldexp(static_cast<long double>(u.sig), u.exp);
  int e = 0;
  const long double m = std::frexp(1.0L / std::sqrt(x), &e);  // m in [0.5, 1)
  const auto sig = static_cast<uint64_t>(std::ldexp(m, 64));  // exact: 64-bit significand
  return fp::round_pack(f, false, e - 64, sig, false, Rounding::rn);
}

}  // namespace ptxfu::approx
