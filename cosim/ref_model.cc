// The MPFR reference model (golden.h). Written for obviousness, not speed.
//
// Why MPFR gives the exact PTX result: mpfr_fma/add/sub/mul compute the exact
// value internally and round once to the destination precision (11 bits for
// f16, 8 for bf16). With the exponent range narrowed to the format's
// (emin = emin_ieee - man + 1, emax = emax_ieee + 1 in MPFR's 0.5 <= m < 1
// convention), mpfr_check_range + mpfr_subnormalize turn that into the IEEE
// result with gradual underflow, without double rounding (MPFR passes the
// ternary value along). Zero signs follow IEEE 754 (x + (-x) = +0 under RN).
#include <mpfr.h>

#include <algorithm>
#include <cstdint>

#include "cosim/golden.h"

namespace ptxfu::cosim {

const uint16_t kReferenceOobNan = PTXFU_COSIM_OOB_NAN;

namespace {

using isa::Mod;
using isa::Op;
using isa::Type;

struct Fmt {
  int exp_bits;
  int man_bits;
  int bias() const { return (1 << (exp_bits - 1)) - 1; }
  int emin() const { return 1 - bias(); }
  uint16_t exp_mask() const { return static_cast<uint16_t>(((1u << exp_bits) - 1) << man_bits); }
  uint16_t frac_mask() const { return static_cast<uint16_t>((1u << man_bits) - 1); }
  uint16_t one() const { return static_cast<uint16_t>(bias() << man_bits); }
};
constexpr Fmt kF16{5, 10};
constexpr Fmt kBF16{8, 7};
constexpr uint16_t kSign = 0x8000;
constexpr uint16_t kCanonicalNan = 0x7fff;

bool is_nan(const Fmt& f, uint16_t x) { return (x & f.exp_mask()) == f.exp_mask() && (x & f.frac_mask()); }
bool is_inf(const Fmt& f, uint16_t x) { return (x & f.exp_mask()) == f.exp_mask() && !(x & f.frac_mask()); }
bool is_sub(const Fmt& f, uint16_t x) { return !(x & f.exp_mask()) && (x & f.frac_mask()); }
bool is_zero(uint16_t x) { return (x & ~kSign) == 0; }
uint16_t flush(const Fmt& f, bool ftz, uint16_t x) { return ftz && is_sub(f, x) ? (x & kSign) : x; }

// Scratch MPFR numbers, made once per thread.
struct Scratch {
  mpfr_t a, b, c, r, t;
  Scratch() {
    mpfr_inits2(16, a, b, c, r, static_cast<mpfr_ptr>(nullptr));
    mpfr_init2(t, 64);
  }
  ~Scratch() { mpfr_clears(a, b, c, r, t, static_cast<mpfr_ptr>(nullptr)); }
};

// The exact value of x.
void to_mpfr(mpfr_t out, const Fmt& f, uint16_t x) {
  const int sign = (x & kSign) ? -1 : 1;
  const unsigned e = (x & f.exp_mask()) >> f.man_bits;
  const unsigned frac = x & f.frac_mask();
  if (is_nan(f, x)) {
    mpfr_set_nan(out);
  } else if (is_inf(f, x)) {
    mpfr_set_inf(out, sign);
  } else if (e == 0 && frac == 0) {
    mpfr_set_zero(out, sign);
  } else {
    const unsigned sig = e ? (frac | (1u << f.man_bits)) : frac;
    const long exp2 = static_cast<long>(e ? e : 1) - f.bias() - f.man_bits;
    mpfr_set_ui_2exp(out, sig, exp2, MPFR_RNDN);  // exact: sig fits the precision
    if (sign < 0) mpfr_neg(out, out, MPFR_RNDN);
  }
}

// Bits of r, which is already a value of the format.
uint16_t from_mpfr(const Fmt& f, mpfr_t r, mpfr_t t) {
  if (mpfr_nan_p(r)) return kCanonicalNan;
  const uint16_t sign = mpfr_signbit(r) ? kSign : 0;
  if (mpfr_inf_p(r)) return sign | f.exp_mask();
  if (mpfr_zero_p(r)) return sign;
  const long e = mpfr_get_exp(r) - 1;  // r = 1.f * 2^e
  mpfr_abs(t, r, MPFR_RNDN);
  if (e >= f.emin()) {
    mpfr_mul_2si(t, t, f.man_bits - e, MPFR_RNDN);
    const unsigned long sig = mpfr_get_ui(t, MPFR_RNDN);
    return sign | static_cast<uint16_t>(((e + f.bias()) << f.man_bits) | (sig & f.frac_mask()));
  }
  mpfr_mul_2si(t, t, f.man_bits - f.emin(), MPFR_RNDN);
  return sign | static_cast<uint16_t>(mpfr_get_ui(t, MPFR_RNDN));
}

// IEEE add/sub/mul/fma in format f, round to nearest even.
uint16_t ieee(const Fmt& f, Op op, uint16_t a, uint16_t b, uint16_t c) {
  thread_local Scratch s;
  const int p = f.man_bits + 1;
  mpfr_set_prec(s.a, p);
  mpfr_set_prec(s.b, p);
  mpfr_set_prec(s.c, p);
  mpfr_set_prec(s.r, p);
  to_mpfr(s.a, f, a);
  to_mpfr(s.b, f, b);
  to_mpfr(s.c, f, c);
  const mpfr_exp_t old_emin = mpfr_get_emin();
  const mpfr_exp_t old_emax = mpfr_get_emax();
  mpfr_set_emin(f.emin() - f.man_bits + 1);
  mpfr_set_emax(f.bias() + 1);
  int t = 0;
  switch (op) {
    case Op::add: t = mpfr_add(s.r, s.a, s.b, MPFR_RNDN); break;
    case Op::sub: t = mpfr_sub(s.r, s.a, s.b, MPFR_RNDN); break;
    case Op::mul: t = mpfr_mul(s.r, s.a, s.b, MPFR_RNDN); break;
    default: t = mpfr_fma(s.r, s.a, s.b, s.c, MPFR_RNDN); break;
  }
  t = mpfr_check_range(s.r, t, MPFR_RNDN);
  mpfr_subnormalize(s.r, t, MPFR_RNDN);
  mpfr_set_emin(old_emin);
  mpfr_set_emax(old_emax);
  return from_mpfr(f, s.r, s.t);
}

// add/sub/mul/fma with the NVIDIA policy.
uint16_t arith(const Fmt& f, const isa::Instr& in, const uint16_t* v) {
  const unsigned n = std::min<unsigned>(in.num_src, 3);  // v holds three operands (reference_execute)
  if (in.has(Mod::oob)) {
    for (unsigned i = 0; i < n; ++i)
      if ((v[i] & ~kSign) == (kReferenceOobNan & ~kSign)) return 0;
  }
  const bool ftz = in.has(Mod::ftz);
  const uint16_t a = flush(f, ftz, v[0]);
  const uint16_t b = flush(f, ftz, v[1]);
  const uint16_t c = n > 2 ? flush(f, ftz, v[2]) : 0;
  uint16_t r = ieee(f, in.op, a, b, c);
  if (is_nan(f, r)) return in.has(Mod::sat) ? 0 : kCanonicalNan;
  if (ftz && is_sub(f, r)) r &= kSign;
  const bool neg = (r & kSign) != 0;
  if (in.has(Mod::sat)) {
    if (neg) return 0;
    if (r > f.one()) return f.one();
  }
  if (in.has(Mod::relu) && neg) return 0;
  return r;
}

// a < b on non-NaN values, with -0 < +0.
bool less(const Fmt& f, uint16_t a, uint16_t b) {
  if (is_zero(a) && is_zero(b)) return (a & kSign) && !(b & kSign);
  thread_local Scratch s;
  mpfr_set_prec(s.a, f.man_bits + 1);
  mpfr_set_prec(s.b, f.man_bits + 1);
  to_mpfr(s.a, f, a);
  to_mpfr(s.b, f, b);
  return mpfr_less_p(s.a, s.b) != 0;
}

// min/max as the PTX ISA pseudo-code (9.7.4.7/8) words it.
uint16_t minmax(const Fmt& f, const isa::Instr& in, const uint16_t* v) {
  const bool ftz = in.has(Mod::ftz);
  uint16_t a = flush(f, ftz, v[0]);
  uint16_t b = flush(f, ftz, v[1]);
  const bool xorsign = in.has(Mod::xorsign);
  uint16_t sign = 0;
  if (xorsign) {
    sign = (a ^ b) & kSign;
    if (in.has(Mod::abs)) {
      a &= ~kSign;
      b &= ~kSign;
    }
  }
  const bool an = is_nan(f, a);
  const bool bn = is_nan(f, b);
  uint16_t d = 0;
  bool d_nan = false;
  if (an && bn) d_nan = true;
  if (in.has(Mod::nan) && (an || bn))
    d_nan = true;
  else if (an)
    d = b;
  else if (bn)
    d = a;
  else if (in.op == Op::min)
    d = less(f, a, b) ? a : b;
  else
    d = less(f, b, a) ? a : b;  // a > b
  if (d_nan) return kCanonicalNan;
  if (is_nan(f, d)) return kCanonicalNan;  // (both NaN without .NaN)
  if (xorsign) d = (d & ~kSign) | sign;
  return d;
}

uint16_t lane_op(const Fmt& f, const isa::Instr& in, const uint16_t* v) {
  switch (in.op) {
    case Op::add:
    case Op::sub:
    case Op::mul:
    case Op::fma: return arith(f, in, v);
    case Op::min:
    case Op::max: return minmax(f, in, v);
    case Op::neg:
    case Op::abs: {
      const uint16_t a = flush(f, in.has(Mod::ftz), v[0]);
      if (is_nan(f, a)) return kCanonicalNan;
      return in.op == Op::neg ? (a ^ kSign) : (a & ~kSign);
    }
    default: return 0;
  }
}

}  // namespace

uint64_t reference_execute(const isa::Instr& in, const uint64_t* src) {
  const bool bf16 = in.type == Type::bf16 || in.type == Type::bf16x2;
  const Fmt& f = bf16 ? kBF16 : kF16;
  const unsigned lanes = (in.type == Type::f16x2 || in.type == Type::bf16x2) ? 2 : 1;
  uint64_t d = 0;
  for (unsigned l = 0; l < lanes; ++l) {
    uint16_t v[3] = {0, 0, 0};
    for (unsigned i = 0; i < in.num_src && i < 3; ++i) v[i] = static_cast<uint16_t>(src[i] >> (16 * l));
    d |= static_cast<uint64_t>(lane_op(f, in, v)) << (16 * l);
  }
  return d;
}

Golden reference_golden() { return &reference_execute; }

}  // namespace ptxfu::cosim
