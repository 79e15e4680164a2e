#include "fp/policy.h"

namespace ptxfu::fp {

uint64_t propagated_nan(const Format& f, const uint64_t* in, size_t n) {
  const uint64_t quiet_bit = f.frac_bits > 0 ? uint64_t{1} << (f.frac_bits - 1) : 0;
  for (size_t i = 0; i < n; ++i)
    if (is_nan(f, in[i])) return in[i] | quiet_bit;
  return canonical_nan(f);
}

}  // namespace ptxfu::fp
