// An MPFR oracle for binary floating-point formats: correctly rounded results
// at a format's precision and exponent range (subnormals included), in the
// four IEEE rounding directions, returned as bit patterns.
//
// Independent of the core: it shares no code or headers with src/fp. Values
// travel as doubles, which hold every value of every format up to binary64
// exactly.
#pragma once
#include <cstdint>

namespace ptxfu::oracle {

struct Spec {
  int exp_bits;
  int frac_bits;
};
inline constexpr Spec kF16{5, 10};
inline constexpr Spec kBF16{8, 7};
inline constexpr Spec kF32{8, 23};
inline constexpr Spec kF64{11, 52};

enum class Rnd { rn, rz, rm, rp };

// Exact value of an encoding (NaN and infinities included).
double decode(const Spec& s, uint64_t bits);
// Encoding of a double that is a value of the format (or inf/NaN).
// A NaN encodes as the canonical NaN: sign 0, all other bits 1.
uint64_t encode(const Spec& s, double v);

// The correctly rounded result in format `out` of the operation applied to
// exact operand values (NaN result: canonical NaN).
uint64_t add(const Spec& out, Rnd r, double a, double b);
uint64_t sub(const Spec& out, Rnd r, double a, double b);
uint64_t mul(const Spec& out, Rnd r, double a, double b);
uint64_t div(const Spec& out, Rnd r, double a, double b);
uint64_t fma(const Spec& out, Rnd r, double a, double b, double c);
uint64_t sqrt(const Spec& out, Rnd r, double a);
uint64_t rcp(const Spec& out, Rnd r, double a);

// Same-format conveniences: operands given as bits of `s`.
uint64_t add_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b);
uint64_t sub_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b);
uint64_t mul_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b);
uint64_t div_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b);
uint64_t fma_bits(const Spec& s, Rnd r, uint64_t a, uint64_t b, uint64_t c);
uint64_t sqrt_bits(const Spec& s, Rnd r, uint64_t a);
uint64_t rcp_bits(const Spec& s, Rnd r, uint64_t a);

}  // namespace ptxfu::oracle
