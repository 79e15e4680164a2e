#include "fp/cvt.h"

#include "fp/core.h"
#include "fp/ops.h"

namespace ptxfu::fp {
namespace {

Policy result_policy(const CvtPolicy& p) {
  Policy q;
  q.rnd = p.rnd;
  q.ftz = p.ftz_out;
  q.sat = p.sat;
  q.relu = p.relu;
  return q;
}

uint64_t flush_in(const Format& f, const CvtPolicy& p, uint64_t a) {
  return p.ftz_in && is_subnormal(f, a) ? (a & f.sign_mask()) : a;
}

// The result half: .satfinite, then the Policy's NaN/.ftz/.sat/.relu.
uint64_t finish_cvt(const Format& to, const CvtPolicy& p, bool nan_in, uint64_t r) {
  if (p.satfinite && !nan_in) {
    const bool sign = (r & to.sign_mask()) != 0;
    const uint64_t mag = r & ~to.sign_mask();
    if (is_nan(to, r) || (to.has_inf() && mag == to.exp_mask())) r = to.max_finite(sign);  // overflow, inf
  }
  return finish(to, result_policy(p), r, to.nan());
}

// |x| rounded to an integer by `r` (the sign decides rmi/rpi); `over` is set
// when the magnitude is 2^64 or more.
uint64_t round_magnitude(const Unpacked& x, IntRounding r, bool& over) {
  over = false;
  if (x.cls == Class::zero) return 0;
  if (x.exp >= 0) {
    over = x.exp + (63 - __builtin_clzll(x.sig)) >= 64;
    return over ? ~uint64_t{0} : x.sig << x.exp;
  }
  const int shift = -x.exp;
  uint64_t q = 0;
  bool half = false, sticky = false;
  if (shift > 64) {
    sticky = true;
  } else if (shift == 64) {
    half = (x.sig >> 63) != 0;
    sticky = (x.sig << 1) != 0;
  } else {
    q = x.sig >> shift;
    const uint64_t rem = x.sig & ((uint64_t{1} << shift) - 1);
    const uint64_t h = uint64_t{1} << (shift - 1);
    half = rem >= h;
    sticky = (rem & (h - 1)) != 0;
  }
  const bool inexact = half || sticky;
  bool up = false;
  switch (r) {
    case IntRounding::rni: up = half && (sticky || (q & 1)); break;
    case IntRounding::rzi: break;
    case IntRounding::rmi: up = x.sign && inexact; break;
    case IntRounding::rpi: up = !x.sign && inexact; break;
  }
  return q + (up ? 1 : 0);
}

}  // namespace

uint64_t cvt_float(const Format& from, const Format& to, uint64_t a, const CvtPolicy& p) {
  const uint64_t in = flush_in(from, p, a);
  return finish_cvt(to, p, is_nan(from, in), ieee::convert(from, to, in, p.rnd, p.random));
}

uint64_t cvt_integral(const Format& f, uint64_t a, IntRounding r, const CvtPolicy& p) {
  const uint64_t in = flush_in(f, p, a);
  const Unpacked x = unpack(f, in);
  uint64_t out;
  switch (x.cls) {
    case Class::nan: out = f.nan(); break;
    case Class::inf:
    case Class::zero: out = in; break;
    default:
      if (x.exp >= 0) {
        out = in;  // already integral
      } else {
        bool over;
        const uint64_t n = round_magnitude(x, r, over);
        out = n == 0 ? f.zero(x.sign) : round_pack(f, x.sign, 0, n, false, Rounding::rz);  // exact
      }
  }
  return finish_cvt(f, p, x.cls == Class::nan, out);
}

uint64_t cvt_float_to_int(const Format& from, uint64_t a, IntRounding r, bool ftz, unsigned bits, bool is_signed) {
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t max_pos = is_signed ? mask >> 1 : mask;     // largest value
  const uint64_t max_neg = is_signed ? (mask >> 1) + 1 : 0;  // magnitude of the smallest
  const uint64_t in = ftz && is_subnormal(from, a) ? (a & from.sign_mask()) : a;
  const Unpacked x = unpack(from, in);
  if (x.cls == Class::nan) return 0;
  bool over = x.cls == Class::inf;
  const uint64_t n = over ? 0 : round_magnitude(x, r, over);
  if (!x.sign) return over || n > max_pos ? max_pos : n;
  if (over || n > max_neg) return (0 - max_neg) & mask;
  return (0 - n) & mask;
}

uint64_t cvt_int_to_float(const Format& to, uint64_t a, unsigned bits, bool is_signed, const CvtPolicy& p) {
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  a &= mask;
  const bool sign = is_signed && ((a >> (bits - 1)) & 1);
  const uint64_t mag = sign ? (0 - a) & mask : a;
  const uint64_t r = mag == 0 ? to.zero(false) : round_pack(to, sign, 0, mag, false, p.rnd);
  return finish_cvt(to, p, false, r);
}

uint64_t cvt_tf32(uint64_t a, bool rna, const CvtPolicy& p) {
  constexpr int kDropped = 23 - 10;  // f32 fraction bits tf32 drops, normal and subnormal alike
  const uint64_t in = flush_in(kF32, p, a);
  const Unpacked x = unpack(kF32, in);
  uint64_t r;
  if (!rna || x.cls == Class::nan || x.cls == Class::inf || x.cls == Class::zero) {
    r = ieee::convert(kF32, kTF32, in, p.rnd);
  } else {
    // Ties away: add half a tf32 ulp to the exact value, then truncate.
    // Rounding up past the largest finite value gives infinity, as for rn.
    const uint64_t sig = x.sig + (uint64_t{1} << (kDropped - 1));
    const bool over = x.exp + 63 - __builtin_clzll(sig) > kTF32.emax();
    r = over ? kTF32.inf(x.sign) : round_pack(kTF32, x.sign, x.exp, sig, false, Rounding::rz);
  }
  return finish_cvt(kTF32, p, x.cls == Class::nan, r) << kDropped;
}

}  // namespace ptxfu::fp
