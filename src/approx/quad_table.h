// Piecewise-quadratic interpolation table in the style of a GPU special
// function unit (Oberman & Siu, ARITH 2005): the reduced argument u in [0, 1)
// is split into a segment index (its top `index_bits` bits) and an offset D
// (the remaining bits); the segment's integer coefficients give
//
//     y = c0 + (c1 * D >> s) + (c2 * (D * D >> s) >> s),   s = offset bits,
//
// a fixed-point value with `frac_bits` fractional bits. Every shift truncates
// (floor), as an RTL datapath with truncated multiplier and squarer outputs
// would.
//
// Generation (done once, at start-up, from the function itself): on segment
// [x0, x0 + h], h = 2^-index_bits, the quadratic p(t), t in [0, 1], interpolates
// f at t = 0, 1/2 and 1 (both ends and the midpoint), computed in long double:
//
//     c0 = f(x0),  c1 = 4 f(x0 + h/2) - 3 f(x0) - f(x0 + h),
//     c2 = 2 f(x0) + 2 f(x0 + h) - 4 f(x0 + h/2),
//
// each then rounded to the nearest multiple of 2^-frac_bits. Interpolating at
// the left end makes the table exact wherever f(x0) is representable (1/1,
// sqrt(4), 2^0, log2(1), ...). The approximation error is at most
// max|f'''| h^3 / 6 * 0.0482 plus about 3 units of 2^-frac_bits from
// coefficient rounding and truncation; the tests measure the total.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ptxfu::approx {

struct QuadSegment {
  int64_t c0;
  int64_t c1;
  int64_t c2;
};

class QuadTable {
 public:
  // f must be defined on the closed interval [0, 1].
  QuadTable(std::string name, const std::function<long double(long double)>& f, int index_bits, int frac_bits);

  // u / 2^u_bits in [0, 1); u_bits >= index_bits. Returns y as above.
  int64_t eval(uint64_t u, int u_bits) const;

  const std::string& name() const { return name_; }
  int index_bits() const { return index_bits_; }
  int frac_bits() const { return frac_bits_; }
  const std::vector<QuadSegment>& segments() const { return segs_; }
  // Bits of the widest coefficient k (0, 1, 2) as a two's-complement field.
  int coef_width(int k) const;

 private:
  std::string name_;
  int index_bits_;
  int frac_bits_;
  std::vector<QuadSegment> segs_;
};

}  // namespace ptxfu::approx
