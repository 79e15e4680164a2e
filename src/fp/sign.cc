// abs, neg, copysign: sign operations. A NaN operand gives a NaN result, which the
// policy turns into the canonical NaN (the PTX ISA leaves it unspecified).
#include "fp/ops.h"

namespace ptxfu::fp {

uint64_t abs(const Format& f, uint64_t a, const Policy& p) {
  return apply_policy(
      f, p, [&](uint64_t va) { return va & ~f.sign_mask(); }, a);
}

uint64_t neg(const Format& f, uint64_t a, const Policy& p) {
  return apply_policy(
      f, p, [&](uint64_t va) { return va ^ f.sign_mask(); }, a);
}

uint64_t copysign(const Format& f, uint64_t a, uint64_t b) { return (b & ~f.sign_mask()) | (a & f.sign_mask()); }

}  // namespace ptxfu::fp
