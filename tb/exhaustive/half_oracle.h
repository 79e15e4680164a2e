// An oracle for the two-operand f16 and bf16 forms (add, sub, mul, min, max),
// written separately from the core for the exhaustive check. Operands become
// doubles exactly; sums carry their rounding error (TwoSum), products are
// exact (at most 2 x 11 significand bits); one rounding written here turns
// the exact value into the 16-bit result. NaN results are the canonical NaN
// (0x7fff), as the README's NaN policy says; min/max follow the PTX ISA's
// pseudo-code (+0 > -0, a NaN operand yields the other one).
#pragma once
#include <cstdint>

namespace ptxfu::exhaustive {

struct HalfFormat {
  int exp_bits;
  int frac_bits;
};
inline constexpr HalfFormat kHalfF16{5, 10};
inline constexpr HalfFormat kHalfBF16{8, 7};

enum class HalfOp { add, sub, mul, min, max, min_nan, max_nan };
enum class HalfRounding { rn, rz, rm, rp };

uint16_t half_reference(HalfFormat f, HalfOp op, HalfRounding r, uint16_t a, uint16_t b);

// The exact value of an encoding (NaN and infinities included).
double half_value(HalfFormat f, uint16_t bits);

}  // namespace ptxfu::exhaustive
