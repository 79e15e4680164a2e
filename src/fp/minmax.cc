// min, max (2 and 3 inputs) following the PTX ISA pseudo-code (9.7.4.7/8):
// .xorsign.abs, .NaN, minNum/maxNum NaN handling, -0 < +0.
#include "fp/ops.h"

namespace ptxfu::fp {
namespace {

// Order key of a non-NaN value: -0 sorts just below +0.
int64_t key(const Format& f, uint64_t x) {
  const auto mag = static_cast<int64_t>(x & ~f.sign_mask());
  return (x & f.sign_mask()) ? -mag - 1 : mag;
}

// One step of the pseudo-code on already flushed (and |.|-ed) operands.
// Returns a NaN (any) for a NaN result.
uint64_t pick(const Format& f, uint64_t a, uint64_t b, bool nan_mode, bool is_max) {
  const bool an = is_nan(f, a);
  const bool bn = is_nan(f, b);
  if (an && bn) return a;
  if (nan_mode && (an || bn)) return an ? a : b;
  if (an) return b;
  if (bn) return a;
  const bool a_wins = is_max ? key(f, a) > key(f, b) : key(f, a) < key(f, b);
  return a_wins ? a : b;
}

uint64_t minmax2(const Format& f, uint64_t a, uint64_t b, const Policy& p, MinMaxMode m, bool is_max) {
  return apply_policy(
      f, p,
      [&](uint64_t va, uint64_t vb) {
        uint64_t x = va;
        uint64_t y = vb;
        const uint64_t xorsign = (x ^ y) & f.sign_mask();
        if (m.xorsign_abs) {
          x &= ~f.sign_mask();
          y &= ~f.sign_mask();
        }
        const uint64_t d = pick(f, x, y, m.nan, is_max);
        // The spec's x2 max pseudo-code tests isNaN(fA[i]) here, unlike every
        // other variant and the prose ("if the result is NaN, .xorsign and .abs
        // are ignored"); we follow the prose: the sign is set on non-NaN results.
        if (m.xorsign_abs && !is_nan(f, d)) return (d & ~f.sign_mask()) | xorsign;
        return d;
      },
      a, b);
}

uint64_t minmax3(const Format& f, uint64_t a, uint64_t b, uint64_t c, const Policy& p, MinMaxMode m, bool is_max) {
  return apply_policy(
      f, p,
      [&](uint64_t va, uint64_t vb, uint64_t vc) {
        const uint64_t mask = m.abs ? ~f.sign_mask() : ~uint64_t{0};
        const uint64_t ab = pick(f, va & mask, vb & mask, m.nan, is_max);
        return pick(f, ab, vc & mask, m.nan, is_max);
      },
      a, b, c);
}

}  // namespace

uint64_t min(const Format& f, uint64_t a, uint64_t b, const Policy& p, MinMaxMode m) {
  return minmax2(f, a, b, p, m, false);
}
uint64_t max(const Format& f, uint64_t a, uint64_t b, const Policy& p, MinMaxMode m) {
  return minmax2(f, a, b, p, m, true);
}
uint64_t min3(const Format& f, uint64_t a, uint64_t b, uint64_t c, const Policy& p, MinMaxMode m) {
  return minmax3(f, a, b, c, p, m, false);
}
uint64_t max3(const Format& f, uint64_t a, uint64_t b, uint64_t c, const Policy& p, MinMaxMode m) {
  return minmax3(f, a, b, c, p, m, true);
}

}  // namespace ptxfu::fp
