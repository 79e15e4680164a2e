#include "exhaustive/half_oracle.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace ptxfu::exhaustive {
namespace {

// 2^n and floor(log2 |v|) by the binary64 encoding, for normal doubles
// (every value here is one: the formats' ranges sit well inside binary64's).
double pow2(int n) {
  const uint64_t bits = static_cast<uint64_t>(n + 1023) << 52;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
int exponent_of(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return static_cast<int>((bits >> 52) & 0x7ff) - 1023;
}

int bias(HalfFormat f) { return (1 << (f.exp_bits - 1)) - 1; }
int emin(HalfFormat f) { return 1 - bias(f); }
uint16_t sign_bit(HalfFormat f) { return static_cast<uint16_t>(1u << (f.exp_bits + f.frac_bits)); }
uint16_t canonical_nan(HalfFormat f) { return static_cast<uint16_t>(sign_bit(f) - 1); }
uint16_t infinity(HalfFormat f, bool negative) {
  return static_cast<uint16_t>(((1u << f.exp_bits) - 1) << f.frac_bits | (negative ? sign_bit(f) : 0));
}
double max_finite(HalfFormat f) { return (2.0 - pow2(-f.frac_bits)) * pow2(bias(f)); }

// The encoding of a magnitude the format holds exactly.
uint16_t encode(HalfFormat f, bool negative, double mag) {
  const uint16_t sign = negative ? sign_bit(f) : 0;
  if (mag == 0) return sign;
  const int e = exponent_of(mag);
  if (e < emin(f))  // subnormal: a multiple of the smallest one
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(mag * pow2(f.frac_bits - emin(f))));
  const auto field = static_cast<uint16_t>(mag * pow2(f.frac_bits - e)) & ((1u << f.frac_bits) - 1);
  return static_cast<uint16_t>(sign | (e + bias(f)) << f.frac_bits | field);
}

// The exact value s + t, |t| at most half an ulp of s in double, rounded once.
uint16_t round_pair(HalfFormat f, HalfRounding r, double s, double t) {
  if (s == 0 && t == 0) return encode(f, std::signbit(s), 0);
  const bool negative = std::signbit(s);
  const double m = std::fabs(s);
  const double u = negative ? -t : t;  // the magnitude is m + u
  int e = exponent_of(m);
  if (u < 0 && m == pow2(e)) --e;  // just below a power of two: the binade beneath
  if (e < emin(f)) e = emin(f);
  const double quantum = pow2(e - f.frac_bits);
  const double k = m / quantum;  // exact: a power-of-two scaling
  double low = std::floor(k);
  const double frac = k - low;
  // Where m + u lies between `low` and `low + 1` quanta.
  bool exact = false, below_half = false, tie = false;
  if (frac == 0) {
    if (u == 0)
      exact = true;
    else if (u > 0)
      below_half = true;
    else
      low -= 1;  // just under `low`: above the half of the quantum beneath
  } else if (frac < 0.5) {
    below_half = true;
  } else if (frac == 0.5) {
    if (u < 0)
      below_half = true;
    else if (u == 0)
      tie = true;
  }
  bool up = false;
  switch (r) {
    case HalfRounding::rn: up = !exact && !below_half && (!tie || std::fmod(low, 2.0) == 1.0); break;
    case HalfRounding::rz: break;
    case HalfRounding::rm: up = negative && !exact; break;
    case HalfRounding::rp: up = !negative && !exact; break;
  }
  const double mag = (low + (up ? 1 : 0)) * quantum;
  if (mag > max_finite(f)) {
    const bool to_inf =
        r == HalfRounding::rn || (r == HalfRounding::rm && negative) || (r == HalfRounding::rp && !negative);
    return to_inf ? infinity(f, negative) : encode(f, negative, max_finite(f));
  }
  return encode(f, negative, mag);
}

uint16_t add(HalfFormat f, HalfRounding r, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return canonical_nan(f);
  if (std::isinf(a) || std::isinf(b)) {
    if (std::isinf(a) && std::isinf(b) && std::signbit(a) != std::signbit(b)) return canonical_nan(f);
    return infinity(f, std::signbit(std::isinf(a) ? a : b));
  }
  const double s = a + b;  // TwoSum (Knuth): s + t == a + b exactly
  const double bb = s - a;
  const double t = (a - (s - bb)) + (b - bb);
  if (s == 0 && t == 0) {  // an exact zero: IEEE 754's sign rule
    const bool negative = (a == 0 && b == 0 && std::signbit(a) && std::signbit(b)) ||
                          (!(a == 0 && b == 0 && std::signbit(a) == std::signbit(b)) && r == HalfRounding::rm);
    return encode(f, negative, 0);
  }
  return round_pair(f, r, s, t);
}

uint16_t mul(HalfFormat f, HalfRounding r, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return canonical_nan(f);
  const bool negative = std::signbit(a) != std::signbit(b);
  if (std::isinf(a) || std::isinf(b)) return (a == 0 || b == 0) ? canonical_nan(f) : infinity(f, negative);
  const double p = a * b;  // exact
  return p == 0 ? encode(f, negative, 0) : round_pair(f, r, p, 0);
}

uint16_t min_max(HalfFormat f, HalfOp op, uint16_t a, uint16_t b) {
  const double x = half_value(f, a), y = half_value(f, b);
  const bool nan_x = std::isnan(x), nan_y = std::isnan(y);
  const bool propagate = op == HalfOp::min_nan || op == HalfOp::max_nan;
  if ((nan_x && nan_y) || (propagate && (nan_x || nan_y))) return canonical_nan(f);
  if (nan_x) return b;
  if (nan_y) return a;
  const bool is_min = op == HalfOp::min || op == HalfOp::min_nan;
  // Order with -0 below +0.
  const bool x_less = x < y || (x == y && std::signbit(x) && !std::signbit(y));
  return is_min == x_less ? a : b;
}

}  // namespace

namespace {

double decode(HalfFormat f, uint16_t bits) {
  const bool negative = bits & sign_bit(f);
  const unsigned e = (bits >> f.frac_bits) & ((1u << f.exp_bits) - 1);
  const unsigned m = bits & ((1u << f.frac_bits) - 1);
  double v;
  if (e == (1u << f.exp_bits) - 1)
    v = m ? NAN : INFINITY;
  else if (e == 0)
    v = std::ldexp(m, emin(f) - f.frac_bits);
  else
    v = std::ldexp(m | (1u << f.frac_bits), static_cast<int>(e) - bias(f) - f.frac_bits);
  return negative ? -v : v;
}

// Every encoding's value, computed once per format.
const std::vector<double>& values(HalfFormat f) {
  auto table = [](HalfFormat g) {
    std::vector<double> t(65536);
    for (uint32_t b = 0; b < 65536; ++b) t[b] = decode(g, static_cast<uint16_t>(b));
    return t;
  };
  static const std::vector<double> f16 = table(kHalfF16), bf16 = table(kHalfBF16);
  return f.exp_bits == kHalfF16.exp_bits ? f16 : bf16;
}

}  // namespace

double half_value(HalfFormat f, uint16_t bits) { return values(f)[bits]; }

uint16_t half_reference(HalfFormat f, HalfOp op, HalfRounding r, uint16_t a, uint16_t b) {
  switch (op) {
    case HalfOp::add: return add(f, r, half_value(f, a), half_value(f, b));
    case HalfOp::sub: return add(f, r, half_value(f, a), -half_value(f, b));
    case HalfOp::mul: return mul(f, r, half_value(f, a), half_value(f, b));
    default: return min_max(f, op, a, b);
  }
}

}  // namespace ptxfu::exhaustive
