// Bit counting without a library call: the build targets baseline x86-64,
// where __builtin_popcount calls libgcc; the simulators count a warp's
// lanes on every issue.
#pragma once
#include <cstdint>

namespace ptxfu::util {

inline unsigned popcount32(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

}  // namespace ptxfu::util
