// mov's lanes in the model: a copy, a pack of 2 or 4 elements into one value
// (the first element in the lowest bits), or the unpack of one value into 2
// or 4 destinations. Here until the core's instruction table has mov and its
// pack/unpack forms; then UnitBase::execute_on_core runs a mov through the
// core like any other form and this file goes.
#pragma once
#include <cstdint>

#include "models/program.h"

namespace ptxfu::models {

inline uint64_t low_bits(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1); }

// `lanes` sources per lane (operand k of lane l: src[k][l]) into `result`
// (destination k of lane l: result[k][l]), active lanes only.
template <unsigned kLanes>
void execute_mov(const ProgramInstr& pi, const uint64_t (*src)[kLanes], uint32_t active, uint64_t (*result)[kLanes]) {
  if (pi.num_dest > 1) {  // unpack
    const unsigned bits = pi.mov_bits / pi.num_dest;
    for (unsigned lane = 0; lane < kLanes; ++lane)
      if (active >> lane & 1)
        for (unsigned k = 0; k < pi.num_dest; ++k) result[k][lane] = low_bits(src[0][lane] >> (k * bits), bits);
    return;
  }
  if (pi.num_src > 1) {  // pack
    const unsigned bits = pi.mov_bits / pi.num_src;
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      if (!(active >> lane & 1)) continue;
      uint64_t v = 0;
      for (unsigned k = 0; k < pi.num_src; ++k) v |= low_bits(src[k][lane], bits) << (k * bits);
      result[0][lane] = v;
    }
    return;
  }
  for (unsigned lane = 0; lane < kLanes; ++lane)
    if (active >> lane & 1) result[0][lane] = src[0][lane];
}

}  // namespace ptxfu::models
