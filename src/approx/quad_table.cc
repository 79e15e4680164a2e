#include "approx/quad_table.h"

#include <cmath>
#include <cstdlib>

namespace ptxfu::approx {
namespace {

int64_t to_fixed(long double v, int frac_bits) { return static_cast<int64_t>(std::llround(std::ldexp(v, frac_bits))); }

int signed_width(int64_t v) {
  const uint64_t mag = static_cast<uint64_t>(v < 0 ? ~v : v);
  return (mag == 0 ? 0 : 64 - __builtin_clzll(mag)) + 1;
}

}  // namespace

QuadTable::QuadTable(std::string name, const std::function<long double(long double)>& f, int index_bits, int frac_bits)
    : name_(std::move(name)), index_bits_(index_bits), frac_bits_(frac_bits) {
  const int n = 1 << index_bits;
  const long double h = std::ldexp(1.0L, -index_bits);
  segs_.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const long double x0 = h * i;
    const long double f0 = f(x0);
    const long double fm = f(x0 + h / 2);
    const long double f1 = f(x0 + h);
    segs_.push_back({to_fixed(f0, frac_bits), to_fixed(4 * fm - 3 * f0 - f1, frac_bits),
                     to_fixed(2 * f0 + 2 * f1 - 4 * fm, frac_bits)});
  }
}

int64_t QuadTable::eval(uint64_t u, int u_bits) const {
  const int s = u_bits - index_bits_;
  const uint64_t idx = u >> s;
  const uint64_t d = u & ((uint64_t{1} << s) - 1);
  const QuadSegment& c = segs_[idx];
  using i128 = __int128;
  const i128 sq = static_cast<i128>((static_cast<unsigned __int128>(d) * d) >> s);
  const i128 lin = (static_cast<i128>(c.c1) * static_cast<i128>(d)) >> s;
  const i128 quad = (static_cast<i128>(c.c2) * sq) >> s;
  return static_cast<int64_t>(c.c0 + lin + quad);
}

int QuadTable::coef_width(int k) const {
  int w = 0;
  for (const QuadSegment& c : segs_) {
    const int64_t v = k == 0 ? c.c0 : k == 1 ? c.c1 : c.c2;
    const int sw = signed_width(v);
    if (sw > w) w = sw;
  }
  return w;
}

}  // namespace ptxfu::approx
