// cvt between integer types: sign- or zero-extension of the source, then
// truncation to the destination, or with .sat clamping to its range.
#pragma once
#include <cstdint>

namespace ptxfu::integer {

// `a` holds a `from_bits`-wide source in its low bits; the result is the
// low `to_bits` bits of the destination.
uint64_t cvt_int(uint64_t a, unsigned from_bits, bool from_signed, unsigned to_bits, bool to_signed, bool sat);

}  // namespace ptxfu::integer
