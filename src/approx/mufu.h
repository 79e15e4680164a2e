// MUFU-style approximations: the special function unit model behind
// sin/cos/lg2/ex2/tanh .approx, rcp/sqrt/rsqrt .approx and div.approx/.full.
//
// Every function takes and returns bit patterns of the named format. Each one
// reduces its argument, evaluates one of the generated interpolation tables
// (approx/tables.h) in fixed point and rounds the fixed-point value to the
// target format once, through fp::round_pack (round to nearest even).
// NaN results are the canonical NaN of the format (all exponent and fraction
// bits set, sign clear: 0x7fff, 0x7fffffff, 0x7fffffffffffffff), except for
// the two f64 .ftz forms below.
//
// `ftz` flushes subnormal inputs and subnormal results to sign-preserving zero
// (ex2: results to +0). Without it subnormal inputs are used at full value and
// subnormal results are produced by gradual underflow.
#pragma once
#include <cstdint>

#include "fp/format.h"

namespace ptxfu::approx {

// The f32 special functions. `f` is the operand and result format; the
// instructions use kF32, the half forms below use kF16/kBF16 for ex2/tanh.
uint64_t rcp_approx(const fp::Format& f, uint64_t a, bool ftz);
uint64_t sqrt_approx(const fp::Format& f, uint64_t a, bool ftz);
uint64_t rsqrt_approx(const fp::Format& f, uint64_t a, bool ftz);
uint64_t sin_approx(const fp::Format& f, uint64_t a, bool ftz);
uint64_t cos_approx(const fp::Format& f, uint64_t a, bool ftz);
uint64_t lg2_approx(const fp::Format& f, uint64_t a, bool ftz);
uint64_t ex2_approx(const fp::Format& f, uint64_t a, bool ftz);
uint64_t tanh_approx(const fp::Format& f, uint64_t a);  // tanh has no .ftz

// div.approx{.ftz}.f32: a * rcp(b), the reciprocal flushed to zero when it
// is subnormal (so |b| > 2^126 gives 0, or NaN for infinite a), then one
// rounded multiplication. div.full{.ftz}.f32: the reciprocal of b's
// significand, rounded to 24 bits, times a's significand, with the exponents
// added separately and one final rounding: full range, IEEE special values.
uint32_t div_approx_f32(uint32_t a, uint32_t b, bool ftz);
uint32_t div_full_f32(uint32_t a, uint32_t b, bool ftz);

// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 (PTX: "tmp = a[63:32]; //
// upper word of a, 1.11.20 format"): the unit reads only the upper word of
// the operand and classifies it as a 1.11.20 number (so an f64 NaN whose
// payload lies only in the low word reads as infinity), and writes only the
// upper word of the result (20-bit fraction, round to nearest even); the
// lower 32 result bits are zero. NaN results are 0x7fffffff00000000, the
// canonical NaN the PTX ISA names for these two instructions.
uint64_t rcp_approx_ftz_f64(uint64_t a);
uint64_t rsqrt_approx_ftz_f64(uint64_t a);
// rsqrt.approx.f64 (emulated by a software sequence on hardware): modelled as
// 1/sqrt computed in 64-bit-significand long double and rounded to f64;
// subnormals supported. Within 0.5 ulp + 2^-11 ulp of the exact value.
uint64_t rsqrt_approx_f64(uint64_t a);

// The half forms, lane by lane (before any hardware-table override; see
// approx/half_table.h for the functions the executor uses).
inline uint16_t tanh_approx_f16(uint16_t a) { return static_cast<uint16_t>(tanh_approx(fp::kF16, a)); }
inline uint16_t tanh_approx_bf16(uint16_t a) { return static_cast<uint16_t>(tanh_approx(fp::kBF16, a)); }
inline uint16_t ex2_approx_f16(uint16_t a) { return static_cast<uint16_t>(ex2_approx(fp::kF16, a, false)); }
inline uint16_t ex2_approx_ftz_bf16(uint16_t a) { return static_cast<uint16_t>(ex2_approx(fp::kBF16, a, true)); }

}  // namespace ptxfu::approx
