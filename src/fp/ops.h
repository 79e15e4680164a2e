// The public floating-point operations of the exact core. Every function
// takes the format as data (a `Format` row), operand bit patterns
// (zero-extended to 64 bits) and the explicit `Policy`, and returns the
// result's bit pattern. Each one is: apply_policy(IEEE operation), where the
// IEEE operation ends in fp::round_pack (or a fast path proven to give the
// same bits, see fast_path.h).
#pragma once
#include <cstddef>
#include <cstdint>

#include "fp/format.h"
#include "fp/policy.h"

namespace ptxfu::fp {

// ---- IEEE 754 operations: rounding `rnd`, gradual underflow, no policy.
// A NaN result is some NaN (apply_policy decides which).
namespace ieee {
uint64_t add(const Format& f, uint64_t a, uint64_t b, Rounding rnd);
uint64_t mul(const Format& f, uint64_t a, uint64_t b, Rounding rnd);
uint64_t fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, Rounding rnd);
uint64_t div(const Format& f, uint64_t a, uint64_t b, Rounding rnd);
uint64_t sqrt(const Format& f, uint64_t a, Rounding rnd);
// `rs`: stochastic rounding (cvt .rs) in place of `rnd` when rs.width > 0.
uint64_t convert(const Format& from, const Format& to, uint64_t a, Rounding rnd, RandomBits rs = {});
}  // namespace ieee

// ---- The same without any fast path (the reference the fast paths must
// match; exposed for tests and benchmarks).
namespace generic {
uint64_t add(const Format& f, uint64_t a, uint64_t b, Rounding rnd);
uint64_t mul(const Format& f, uint64_t a, uint64_t b, Rounding rnd);
uint64_t fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, Rounding rnd);
}  // namespace generic

// ---- With the policy applied (what the PTX instructions compute).
uint64_t add(const Format& f, uint64_t a, uint64_t b, const Policy& p = {});
uint64_t sub(const Format& f, uint64_t a, uint64_t b, const Policy& p = {});
uint64_t mul(const Format& f, uint64_t a, uint64_t b, const Policy& p = {});
uint64_t fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, const Policy& p = {});
uint64_t div(const Format& f, uint64_t a, uint64_t b, const Policy& p = {});
uint64_t rcp(const Format& f, uint64_t a, const Policy& p = {});
uint64_t sqrt(const Format& f, uint64_t a, const Policy& p = {});
uint64_t abs(const Format& f, uint64_t a, const Policy& p = {});
uint64_t neg(const Format& f, uint64_t a, const Policy& p = {});
// ---- Arrays: d[i] = op(a[i], b[i][, c[i]]) under p for i < n, bit for bit
// the operation above (batch.cc): the row, the rounding mode and the policy
// are dispatched once per call instead of once per element. `d` may be one
// of the operand arrays.
void add_n(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, uint64_t* d, const Policy& p = {});
void sub_n(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, uint64_t* d, const Policy& p = {});
void mul_n(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, uint64_t* d, const Policy& p = {});
void fma_n(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d,
           const Policy& p = {});
namespace detail {
// Tests only: whether the array forms may use their SIMD kernels (x86-64
// AVX2/F16C/FMA where the host has them); returns the previous setting.
// Without them every array form runs the portable loop.
bool use_array_simd(bool on);
}  // namespace detail
// copysign (PTX 9.7.4.2): b's magnitude with a's sign, a bit operation that
// keeps a NaN's payload.
uint64_t copysign(const Format& f, uint64_t a, uint64_t b);
// testp (PTX 9.7.4.1): 1 when `a` is of the class, else 0. As PTX says, +0 and
// -0 count as normal.
enum class TestClass : uint8_t { finite, infinite, number, notanumber, normal, subnormal };
uint64_t testp(const Format& f, TestClass c, uint64_t a);
// Format conversion (cvt); exact widening when `to` contains `from`.
uint64_t convert(const Format& from, const Format& to, uint64_t a, const Policy& p = {});

// min/max modifiers beyond the policy (.ftz comes from Policy::ftz).
struct MinMaxMode {
  bool nan = false;          // .NaN: any NaN operand -> NaN
  bool xorsign_abs = false;  // .xorsign.abs (2 inputs): |a| vs |b|, sign = sa ^ sb
  bool abs = false;          // .abs (3 inputs): operate on |a|, |b|, |c|
};
// -0 < +0. Without .NaN a NaN operand is ignored (minNum/maxNum); NaN only
// when every operand is NaN. A non-NaN result is an operand's bits (after
// .ftz), with the xorsign applied.
uint64_t min(const Format& f, uint64_t a, uint64_t b, const Policy& p = {}, MinMaxMode m = {});
uint64_t max(const Format& f, uint64_t a, uint64_t b, const Policy& p = {}, MinMaxMode m = {});
uint64_t min3(const Format& f, uint64_t a, uint64_t b, uint64_t c, const Policy& p = {}, MinMaxMode m = {});
uint64_t max3(const Format& f, uint64_t a, uint64_t b, uint64_t c, const Policy& p = {}, MinMaxMode m = {});

// Mixed precision (PTX 9.7.5): `a` (and `b`) in `src` are converted exactly
// to `dst` and the operation is rounded once in `dst` under `p`.
uint64_t add_mixed(const Format& src, const Format& dst, uint64_t a, uint64_t c, const Policy& p = {});
uint64_t sub_mixed(const Format& src, const Format& dst, uint64_t a, uint64_t c, const Policy& p = {});
uint64_t fma_mixed(const Format& src, const Format& dst, uint64_t a, uint64_t b, uint64_t c, const Policy& p = {});

}  // namespace ptxfu::fp
