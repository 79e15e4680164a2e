// cvt between integer types: sign- or zero-extension of the source, then
// truncation to the destination, or with .sat clamping to its range.
#pragma once
#include <cstdint>

namespace ptxfu::integer {

// `a` holds a `from_bits`-wide source in its low bits; the result is the
// low `to_bits` bits of the destination.
uint64_t cvt_int(uint64_t a, unsigned from_bits, bool from_signed, unsigned to_bits, bool to_signed, bool sat);

// cvt.pack.sat: the 32-bit signed a and b, each saturated to a `bits`-wide
// integer (16, 8, 4 or 2 bits), packed as d[2*bits-1:bits] = a,
// d[bits-1:0] = b; the bits of d above them are c's low bits (PTX ISA,
// cvt.pack: "remaining bits of d are copied from lower bits of c"). The
// 16-bit forms have no c: pass 0.
uint32_t cvt_pack(uint32_t a, uint32_t b, uint32_t c, unsigned bits, bool to_signed);

}  // namespace ptxfu::integer
