#include "oracle/mpfr_oracle.h"

#include <mpfr.h>

#include <cmath>

namespace ptxfu::oracle {
namespace {

int bias(const Spec& s) { return (1 << (s.exp_bits - 1)) - 1; }
uint64_t canonical_nan(const Spec& s) {
  const int w = 1 + s.exp_bits + s.frac_bits;
  return (w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1) >> 1;
}

mpfr_rnd_t to_mpfr(Rnd r) {
  switch (r) {
    case Rnd::rn: return MPFR_RNDN;
    case Rnd::rz: return MPFR_RNDZ;
    case Rnd::rm: return MPFR_RNDD;
    case Rnd::rp: return MPFR_RNDU;
  }
  return MPFR_RNDN;
}

// Scratch variables, one set per thread.
struct Scratch {
  mpfr_t x[3];
  mpfr_t r;
  Scratch() {
    for (auto& v : x) mpfr_init2(v, 64);
    mpfr_init2(r, 64);
  }
  ~Scratch() {
    for (auto& v : x) mpfr_clear(v);
    mpfr_clear(r);
  }
};
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

enum class Op { add, sub, mul, div, fma, sqrt, rcp };

// Runs the operation at precision frac_bits + 1 in the format's exponent
// range: MPFR represents x = m * 2^e with 1/2 <= m < 1, so the largest
// finite value is below 2^(bias + 1) (emax = bias + 1) and the smallest
// subnormal 2^(1 - bias - frac_bits) has e = 2 - bias - frac_bits (emin).
// mpfr_check_range handles overflow per rounding direction and
// mpfr_subnormalize rounds again at the subnormal quantum without double
// rounding (it uses the first rounding's ternary value).
uint64_t run(const Spec& out, Rnd rnd, Op op, double a, double b, double c) {
  Scratch& s = scratch();
  mpfr_set_d(s.x[0], a, MPFR_RNDN);  // exact: precision 64 >= 53
  mpfr_set_d(s.x[1], b, MPFR_RNDN);
  mpfr_set_d(s.x[2], c, MPFR_RNDN);
  mpfr_set_prec(s.r, out.frac_bits + 1);
  const mpfr_exp_t old_emin = mpfr_get_emin();
  const mpfr_exp_t old_emax = mpfr_get_emax();
  mpfr_set_emin(2 - bias(out) - out.frac_bits);
  mpfr_set_emax(bias(out) + 1);
  const mpfr_rnd_t r = to_mpfr(rnd);
  int t = 0;
  switch (op) {
    case Op::add: t = mpfr_add(s.r, s.x[0], s.x[1], r); break;
    case Op::sub: t = mpfr_sub(s.r, s.x[0], s.x[1], r); break;
    case Op::mul: t = mpfr_mul(s.r, s.x[0], s.x[1], r); break;
    case Op::div: t = mpfr_div(s.r, s.x[0], s.x[1], r); break;
    case Op::fma: t = mpfr_fma(s.r, s.x[0], s.x[1], s.x[2], r); break;
    case Op::sqrt: t = mpfr_sqrt(s.r, s.x[0], r); break;
    case Op::rcp: t = mpfr_ui_div(s.r, 1, s.x[0], r); break;
  }
  t = mpfr_check_range(s.r, t, r);
  mpfr_subnormalize(s.r, t, r);
  mpfr_set_emin(old_emin);
  mpfr_set_emax(old_emax);
  return encode(out, mpfr_get_d(s.r, MPFR_RNDN));  // exact: the result fits a double
}

}  // namespace

double decode(const Spec& s, uint64_t bits) {
  const bool sign = (bits >> (s.exp_bits + s.frac_bits)) & 1;
  const uint64_t e = (bits >> s.frac_bits) & ((uint64_t{1} << s.exp_bits) - 1);
  const uint64_t f = bits & ((uint64_t{1} << s.frac_bits) - 1);
  double v;
  if (e == (uint64_t{1} << s.exp_bits) - 1) {
    v = f ? std::nan("") : INFINITY;
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(f), 1 - bias(s) - s.frac_bits);
  } else {
    v = std::ldexp(static_cast<double>(f | (uint64_t{1} << s.frac_bits)), static_cast<int>(e) - bias(s) - s.frac_bits);
  }
  return sign ? -v : v;
}

uint64_t encode(const Spec& s, double v) {
  if (std::isnan(v)) return canonical_nan(s);
  const uint64_t sign = std::signbit(v) ? uint64_t{1} << (s.exp_bits + s.frac_bits) : 0;
  const uint64_t all_ones = (uint64_t{1} << s.exp_bits) - 1;
  if (std::isinf(v)) return sign | (all_ones << s.frac_bits);
  if (v == 0) return sign;
  int e;
  const double m = std::frexp(std::fabs(v), &e);  // |v| = m * 2^e, 1/2 <= m < 1
  const int unbiased = e - 1;
  if (unbiased >= 1 - bias(s)) {
    const auto frac = static_cast<uint64_t>(std::ldexp(2 * m - 1, s.frac_bits));
    return sign | (static_cast<uint64_t>(unbiased + bias(s)) << s.frac_bits) | frac;
  }
  return sign | static_cast<uint64_t>(std::ldexp(std::fabs(v), bias(s) - 1 + s.frac_bits));
}

uint64_t add(const Spec& o, Rnd r, double a, double b) { return run(o, r, Op::add, a, b, 0); }
uint64_t sub(const Spec& o, Rnd r, double a, double b) { return run(o, r, Op::sub, a, b, 0); }
uint64_t mul(const Spec& o, Rnd r, double a, double b) { return run(o, r, Op::mul, a, b, 0); }
uint64_t div(const Spec& o, Rnd r, double a, double b) { return run(o, r, Op::div, a, b, 0); }
uint64_t fma(const Spec& o, Rnd r, double a, double b, double c) { return run(o, r, Op::fma, a, b, c); }
uint64_t sqrt(const Spec& o, Rnd r, double a) { return run(o, r, Op::sqrt, a, 0, 0); }
uint64_t rcp(const Spec& o, Rnd r, double a) { return run(o, r, Op::rcp, a, 0, 0); }

uint64_t add_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b) { return add(s, r, decode(s, a), decode(s, b)); }
uint64_t sub_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b) { return sub(s, r, decode(s, a), decode(s, b)); }
uint64_t mul_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b) { return mul(s, r, decode(s, a), decode(s, b)); }
uint64_t div_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b) { return div(s, r, decode(s, a), decode(s, b)); }
uint64_t fma_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b, uint64_t c) {
  return fma(s, r, decode(s, a), decode(s, b), decode(s, c));
}
uint64_t sqrt_bits(const Spec& s, Rnd r, uint64_t a) { return sqrt(s, r, decode(s, a)); }
uint64_t rcp_bits(const Spec& s, Rnd r, uint64_t a) { return rcp(s, r, decode(s, a)); }

}  // namespace ptxfu::oracle
