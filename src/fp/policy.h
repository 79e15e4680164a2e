// The NVIDIA result policy: rounding, .ftz, .sat, .relu, .oob and the NaN
// rule, as ONE explicit value. Every public operation applies it in exactly
// one place, `apply_policy` below: check .oob on the raw operands, flush
// subnormal operands (.ftz), run the IEEE operation, then `finish` the result.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fp/format.h"

namespace ptxfu::fp {

// What a NaN result becomes.
//   canonical: the format's canonical NaN (sign 0, every exponent and
//              fraction bit set: f16/bf16 0x7fff, f32 0x7fffffff,
//              f64 0x7fffffffffffffff): the project's default, for every
//              NaN result (the PTX ISA calls NaN results "unspecified" for
//              half precision and "canonical" for .NaN min/max).
//   propagate: the first NaN operand, quietened (IEEE 754 style); the
//              canonical NaN when the NaN was created by an invalid operation.
enum class NanMode : uint8_t { canonical, propagate };

struct Policy {
  Rounding rnd = Rounding::rn;
  // Flush subnormal operands and subnormal results to sign-preserving zero.
  // A result is subnormal when the correctly rounded IEEE result (with
  // gradual underflow) is subnormal: tininess is decided after rounding, so a
  // value just below the smallest normal that rounds up to it is kept.
  bool ftz = false;
  bool sat = false;   // clamp to [+0, 1]; NaN -> +0; -0 -> +0
  bool relu = false;  // negative (and -0) -> +0; NaN -> the canonical NaN
  bool oob = false;   // any operand equal to the OOB-NaN -> +0
  NanMode nan = NanMode::canonical;

  // No modifier and the canonical NaN rule: the four flag bytes read as one
  // word, plus the NaN byte.
  bool plain() const {
    uint32_t flags;
    std::memcpy(&flags, reinterpret_cast<const unsigned char*>(this) + offsetof(Policy, ftz), sizeof flags);
    return flags == 0 && nan == NanMode::canonical;
  }
};
static_assert(offsetof(Policy, sat) == offsetof(Policy, ftz) + 1 &&
                  offsetof(Policy, relu) == offsetof(Policy, ftz) + 2 &&
                  offsetof(Policy, oob) == offsetof(Policy, ftz) + 3,
              "Policy::plain() reads the four flags as one word");

[[gnu::always_inline]] constexpr uint64_t canonical_nan(const Format& f) { return f.nan(); }

// The OOB-NaN ("a special NaN called OOB-NaN", PTX ISA 9.1 section 5.5.3.3,
// "Out of Boundary Access", tensor tiled mode) is written by TMA loads in
// OOB-NaN fill mode (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) and
// recognised by fma.oob. The PTX ISA text gives no bit pattern. The only
// concrete value found (search, code corpus) is 0x7ff7 for 16-bit formats,
// matched on magnitude (sign ignored), used by a third-party PTX simulator
// that reports it as measured on hardware. We adopt it for f16 and bf16 and
// keep it here as the one place to change; formats without an OOB-NaN
// return 0 (no operand matches).
[[gnu::always_inline]] constexpr uint64_t oob_nan(const Format& f) { return f.width() == 16 ? 0x7ff7 : 0; }
[[gnu::always_inline]] constexpr bool is_oob_nan(const Format& f, uint64_t bits) {
  return oob_nan(f) != 0 && (bits & ~f.sign_mask()) == oob_nan(f);
}

// .ftz on one operand.
[[gnu::always_inline]] constexpr uint64_t flush_operand(const Format& f, const Policy& p, uint64_t x) {
  return p.ftz && is_subnormal(f, x) ? (x & f.sign_mask()) : x;
}

// NaN result under NanMode::propagate: the first NaN among `in`, quietened;
// the canonical NaN when there is none (policy.cc).
uint64_t propagated_nan(const Format& f, const uint64_t* in, size_t n);

// The result half of the policy: NaN rule, .ftz, .sat, .relu. `nan` is the
// NaN to return for a NaN result (NaN rule already applied).
inline uint64_t finish(const Format& f, const Policy& p, uint64_t r, uint64_t nan) {
  if (is_nan(f, r)) return p.sat ? f.zero(false) : nan;
  if (p.ftz && is_subnormal(f, r)) r &= f.sign_mask();
  const bool neg = (r & f.sign_mask()) != 0;
  if (p.sat) {
    if (neg) return f.zero(false);
    if (r > f.one(false)) return f.one(false);  // finite or +inf above 1.0
  }
  if (p.relu && neg) return f.zero(false);
  return r;
}

// THE place where a Policy is applied. `op(operands...)` is the plain IEEE
// 754 operation (rounding p.rnd, gradual underflow) from operands in format
// `in_f` to a result in format `out_f`.
template <class Op, class... U>
[[gnu::always_inline]] inline uint64_t apply_policy(const Format& in_f, const Format& out_f, const Policy& p, Op&& op,
                                                    U... in) {
  // No modifier and the canonical NaN: the common case, the same rules.
  if (p.plain()) {
    const uint64_t r = op(in...);
    return is_nan(out_f, r) ? canonical_nan(out_f) : r;
  }
  if (p.oob && (is_oob_nan(in_f, in) || ...)) return out_f.zero(false);
  const uint64_t r = op(flush_operand(in_f, p, in)...);
  uint64_t nan = canonical_nan(out_f);
  // .relu turns every NaN into the canonical NaN (PTX ISA 9.7.4.4).
  if (p.nan == NanMode::propagate && !p.relu && in_f.width() == out_f.width() && is_nan(out_f, r)) {
    const uint64_t operands[] = {in...};
    nan = propagated_nan(in_f, operands, sizeof...(in));
  }
  return finish(out_f, p, r, nan);
}

template <class Op, class... U>
[[gnu::always_inline]] inline uint64_t apply_policy(const Format& f, const Policy& p, Op&& op, U... in) {
  return apply_policy(f, f, p, static_cast<Op&&>(op), in...);
}

}  // namespace ptxfu::fp
