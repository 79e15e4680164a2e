#include "int/convert.h"

namespace ptxfu::integer {
namespace {

constexpr uint64_t mask_of(unsigned bits) { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

}  // namespace

uint64_t cvt_int(uint64_t a, unsigned from_bits, bool from_signed, unsigned to_bits, bool to_signed, bool sat) {
  a &= mask_of(from_bits);
  const bool neg = from_signed && ((a >> (from_bits - 1)) & 1);
  const uint64_t ext = neg ? a | ~mask_of(from_bits) : a;  // the value, two's complement in 64 bits
  const uint64_t out_mask = mask_of(to_bits);
  if (!sat) return ext & out_mask;
  // .sat: clamp to the destination range.
  if (neg) {
    if (!to_signed) return 0;
    const int64_t min = -static_cast<int64_t>(out_mask >> 1) - 1;
    return static_cast<int64_t>(ext) < min ? static_cast<uint64_t>(min) & out_mask : ext & out_mask;
  }
  const uint64_t max = to_signed ? out_mask >> 1 : out_mask;
  return ext > max ? max : ext;
}

uint32_t cvt_pack(uint32_t a, uint32_t b, uint32_t c, unsigned bits, bool to_signed) {
  const unsigned n = bits < 16 ? bits : 16;  // 16, 8, 4 or 2
  const uint64_t ta = cvt_int(a, 32, true, n, to_signed, true);
  const uint64_t tb = cvt_int(b, 32, true, n, to_signed, true);
  const uint64_t rest = n == 16 ? 0 : uint64_t{c} << (2 * n);  // the 16-bit forms have no c
  return static_cast<uint32_t>(rest | (ta << n) | tb);
}

}  // namespace ptxfu::integer
