// cvt between formats, integers and floats: the conversions of PTX's cvt
// that are not a plain IEEE convert (fp/ops.h). Each ends in round_pack and
// applies the one Policy (fp/policy.h) for .sat, .relu, .ftz and NaN.
#pragma once
#include <cstdint>

#include "fp/format.h"
#include "fp/policy.h"

namespace ptxfu::fp {

// cvt's integer roundings (.rni .rzi .rmi .rpi): to an integral value.
enum class IntRounding : uint8_t { rni, rzi, rmi, rpi };

// What cvt applies around a float-to-float conversion. PTX: ".ftz applies
// only to .f32 inputs and results", so flushing is split by side.
struct CvtPolicy {
  Rounding rnd = Rounding::rn;
  bool ftz_in = false;     // flush subnormal operands to signed zero
  bool ftz_out = false;    // flush subnormal results to signed zero
  bool sat = false;        // clamp to [+0, 1], NaN -> +0
  bool relu = false;       // negative -> +0, NaN -> canonical NaN
  bool satfinite = false;  // +-inf and overflow -> +-max finite; NaN stays NaN
  RandomBits random;       // .rs: this value's random bits (width 0: rounded by rnd)
};

// Float to float (any rows of fp/format.h), rounded once under p.rnd.
uint64_t cvt_float(const Format& from, const Format& to, uint64_t a, const CvtPolicy& p);
// Rounds a float to an integral value in the same format (cvt.rni.f32.f32).
uint64_t cvt_integral(const Format& f, uint64_t a, IntRounding r, const CvtPolicy& p);
// Float to a `bits`-wide integer: rounded by `r`, saturated to the
// destination range; NaN gives 0 (PTX cvt). Returns the low `bits` bits.
uint64_t cvt_float_to_int(const Format& from, uint64_t a, IntRounding r, bool ftz, unsigned bits, bool is_signed);
// A `bits`-wide integer (low bits of `a`) to a float, rounded once.
uint64_t cvt_int_to_float(const Format& to, uint64_t a, unsigned bits, bool is_signed, const CvtPolicy& p);

// f32 to tf32, returned in its 32-bit container (the f32 layout, the low 13
// bits zero): rounded by p.rnd, or to nearest with ties away from zero
// (.rna) when `rna`.
uint64_t cvt_tf32(uint64_t a, bool rna, const CvtPolicy& p);

}  // namespace ptxfu::fp
