// Floating-point formats as rows of data. Every operation in the core is
// written once against `Format`; adding tf32 or an fp8 is one more row.
#pragma once
#include <cstdint>
#include <string_view>

namespace ptxfu::fp {

using u128 = unsigned __int128;

enum class Rounding : uint8_t { rn, rz, rm, rp };

struct Format {
  std::string_view name;
  int exp_bits;
  int frac_bits;

  constexpr int width() const { return 1 + exp_bits + frac_bits; }
  constexpr int bias() const { return (1 << (exp_bits - 1)) - 1; }
  constexpr int emin() const { return 1 - bias(); }  // exponent of the smallest normal
  constexpr int emax() const { return bias(); }
  constexpr uint64_t frac_mask() const { return (uint64_t{1} << frac_bits) - 1; }
  constexpr uint64_t exp_mask() const {
    return ((uint64_t{1} << exp_bits) - 1) << frac_bits;
  }
  constexpr uint64_t sign_mask() const { return uint64_t{1} << (width() - 1); }
  constexpr uint64_t bits_mask() const {
    return width() == 64 ? ~uint64_t{0} : (uint64_t{1} << width()) - 1;
  }
  constexpr uint64_t zero(bool sign) const { return sign ? sign_mask() : 0; }
  constexpr uint64_t inf(bool sign) const { return zero(sign) | exp_mask(); }
  constexpr uint64_t max_finite(bool sign) const {
    return zero(sign) | (exp_mask() - (uint64_t{1} << frac_bits)) | frac_mask();
  }
  constexpr uint64_t one(bool sign) const {
    return zero(sign) | (static_cast<uint64_t>(bias()) << frac_bits);
  }
};

inline constexpr Format kF16{"f16", 5, 10};
inline constexpr Format kBF16{"bf16", 8, 7};
inline constexpr Format kF32{"f32", 8, 23};
inline constexpr Format kF64{"f64", 11, 52};

enum class Class : uint8_t { zero, subnormal, normal, inf, nan };

// A finite value is (-1)^sign * sig * 2^exp with the implicit bit included
// for normals. For zero, inf and nan only `sign` (and `sig` = fraction for
// nan) is meaningful.
struct Unpacked {
  bool sign;
  Class cls;
  int exp;
  uint64_t sig;
};

constexpr Unpacked unpack(const Format& f, uint64_t bits) {
  const bool sign = (bits & f.sign_mask()) != 0;
  const uint64_t biased = (bits & f.exp_mask()) >> f.frac_bits;
  const uint64_t frac = bits & f.frac_mask();
  const uint64_t all_ones = (uint64_t{1} << f.exp_bits) - 1;
  if (biased == all_ones) return {sign, frac ? Class::nan : Class::inf, 0, frac};
  if (biased == 0) {
    if (frac == 0) return {sign, Class::zero, 0, 0};
    return {sign, Class::subnormal, f.emin() - f.frac_bits, frac};
  }
  return {sign, Class::normal, static_cast<int>(biased) - f.bias() - f.frac_bits,
          frac | (uint64_t{1} << f.frac_bits)};
}

constexpr Class classify(const Format& f, uint64_t bits) { return unpack(f, bits).cls; }
constexpr bool is_nan(const Format& f, uint64_t bits) {
  return (bits & f.exp_mask()) == f.exp_mask() && (bits & f.frac_mask()) != 0;
}
constexpr bool is_subnormal(const Format& f, uint64_t bits) {
  return (bits & f.exp_mask()) == 0 && (bits & f.frac_mask()) != 0;
}

// THE rounding step: every operation of every format ends here.
// Rounds the exact value (-1)^sign * (sig + t) * 2^exp, where 0 <= t < 1 and
// t > 0 exactly when `sticky`, to format `f` under `rnd`: subnormals,
// overflow to inf or max-finite by mode. Precondition: sig != 0 if sticky.
// A zero result keeps `sign`; the caller decides exact-zero signs.
uint64_t round_pack(const Format& f, bool sign, int exp, u128 sig, bool sticky, Rounding rnd);

}  // namespace ptxfu::fp
