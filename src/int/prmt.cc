// prmt.b32 (PTX ISA 9.7.9 "Data Movement and Conversion Instructions:
// prmt"). The eight source bytes are {b, a}: bytes 0..3 of a, 4..7 of b.
#include <cstdint>

#include "int/int_ops.h"

namespace ptxfu::integer {
namespace {

// The byte each destination byte (0..3) takes in the special modes, per
// c[1:0]: the ISA's table, one row per mode in Permute order after generic.
constexpr uint8_t kModeBytes[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e: forward 4 extract
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e: backward 4 extract
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8: replicate byte
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl: edge clamp left
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr: edge clamp right
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16: replicate half
};

}  // namespace

uint32_t prmt(Permute mode, uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t bytes = (static_cast<uint64_t>(b) << 32) | a;
  auto byte = [bytes](unsigned i) { return static_cast<uint32_t>((bytes >> (8 * i)) & 0xff); };
  uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    uint32_t v;
    if (mode == Permute::generic) {
      const unsigned sel = (c >> (4 * i)) & 0xf;
      v = byte(sel & 7);
      if (sel & 8) v = (v & 0x80) ? 0xff : 0;  // replicate the sign
    } else {
      v = byte(kModeBytes[static_cast<unsigned>(mode) - 1][c & 3][i]);
    }
    d |= v << (8 * i);
  }
  return d;
}

}  // namespace ptxfu::integer
