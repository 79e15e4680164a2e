// convert (cvt between float formats) and the mixed-precision operations,
// which widen their narrow operands exactly and round once in the wide format.
#include <cassert>

#include "fp/core.h"
#include "fp/ops.h"

namespace ptxfu::fp {
namespace {

// `to` holds every value of `from` exactly.
constexpr bool widens(const Format& from, const Format& to) {
  return to.frac_bits >= from.frac_bits && to.emax() >= from.emax() &&
         to.emin() - to.frac_bits <= from.emin() - from.frac_bits;
}

}  // namespace

namespace ieee {

uint64_t convert(const Format& from, const Format& to, uint64_t a, Rounding rnd, RandomBits rs) {
  const Unpacked x = unpack(from, a);
  switch (x.cls) {
    case Class::nan: return detail::default_nan(to);
    case Class::inf: return to.inf(x.sign);
    case Class::zero: return to.zero(x.sign);
    default: return round_pack(to, x.sign, x.exp, x.sig, false, rnd, rs);
  }
}

}  // namespace ieee

uint64_t convert(const Format& from, const Format& to, uint64_t a, const Policy& p) {
  return apply_policy(
      from, to, p, [&](uint64_t va) { return ieee::convert(from, to, va, p.rnd); }, a);
}

uint64_t add_mixed(const Format& src, const Format& dst, uint64_t a, uint64_t c, const Policy& p) {
  assert(widens(src, dst));
  return add(dst, ieee::convert(src, dst, a, Rounding::rn), c, p);
}

uint64_t sub_mixed(const Format& src, const Format& dst, uint64_t a, uint64_t c, const Policy& p) {
  assert(widens(src, dst));
  return sub(dst, ieee::convert(src, dst, a, Rounding::rn), c, p);
}

uint64_t fma_mixed(const Format& src, const Format& dst, uint64_t a, uint64_t b, uint64_t c, const Policy& p) {
  assert(widens(src, dst));
  return fma(dst, ieee::convert(src, dst, a, Rounding::rn), ieee::convert(src, dst, b, Rounding::rn), c, p);
}

}  // namespace ptxfu::fp
