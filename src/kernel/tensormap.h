// The tensor map (CUtensorMap) that cp.async.bulk.tensor reads: what
// cuTensorMapEncodeTiled's arguments describe, in tile mode. The hardware's
// 128-byte descriptor is opaque, so ptxfu defines its own layout (below,
// docs/sim.md "Tensor maps"): a host encodes it (`--arg tmap:...`,
// Arg::tensor_map) and a kernel reads it from global memory or from a
// __grid_constant__ parameter.
//
//   bytes   field
//   0..7    global address (u64)
//   8       data type: CUtensorMapDataType's value (0 UINT8 ... 12 TFLOAT32_FTZ)
//   9       rank, 1 to 5
//   10      interleave (0: none, the only one modelled)
//   11      swizzle: 0 none, 1 32B, 2 64B, 3 128B
//   12      out-of-bounds fill: 0 zeros, 1 NaN (float types)
//   13..15  0
//   16..35  global dims, u32 x 5, innermost first
//   36..39  0
//   40..71  global strides in bytes of dims 1..4, u64 x 4
//   72..91  box dims, u32 x 5
//   92..111 element strides, u32 x 5
//   112..115 the magic "PTXT" (0x54585450): a map ptxfu did not encode is an error
//   116..127 0
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxfu::kernel {

inline constexpr unsigned kTensorMapBytes = 128, kTensorMapAlign = 64, kMaxTensorRank = 5;
inline constexpr uint32_t kTensorMapMagic = 0x54585450;

// A data type of CUtensorMapDataType: its name in `--arg tmap:`, its value
// in the CUDA enum, its size and whether an out-of-bounds NaN fill applies.
struct TensorMapType {
  std::string_view name;
  uint8_t cuda_value;
  uint8_t bytes;
  bool floating;
};
inline constexpr TensorMapType kTensorMapTypes[] = {
    {"u8", 0, 1, false},       {"u16", 1, 2, false}, {"u32", 2, 4, false},     {"s32", 3, 4, false},
    {"u64", 4, 8, false},      {"s64", 5, 8, false}, {"f16", 6, 2, true},      {"f32", 7, 4, true},
    {"f64", 8, 8, true},       {"bf16", 9, 2, true}, {"f32_ftz", 10, 4, true}, {"tf32", 11, 4, true},
    {"tf32_ftz", 12, 4, true},
};
const TensorMapType* tensor_map_type(uint8_t cuda_value);
const TensorMapType* tensor_map_type(std::string_view name);

struct TensorMap {
  uint64_t address = 0;
  uint8_t type = 7;  // CUtensorMapDataType (f32)
  uint8_t rank = 1;
  uint8_t interleave = 0;
  uint8_t swizzle = 0;  // 0 none, 1 32B, 2 64B, 3 128B
  uint8_t oob_nan = 0;
  uint32_t dims[kMaxTensorRank] = {1, 1, 1, 1, 1};
  uint64_t strides[kMaxTensorRank - 1] = {};  // bytes between consecutive indices of dims 1..
  uint32_t box[kMaxTensorRank] = {1, 1, 1, 1, 1};
  uint32_t element_strides[kMaxTensorRank] = {1, 1, 1, 1, 1};
};

std::array<uint8_t, kTensorMapBytes> encode(const TensorMap& m);
// The map in `bytes`, or what is wrong with it ("" when nothing).
std::string decode(const uint8_t* bytes, TensorMap& m);
// cuTensorMapEncodeTiled's requirements (CUDA driver API reference): "" or
// the first one `m` breaks.
std::string validate(const TensorMap& m);
// Bytes of the box one copy moves (elements traversed: ceil(box / element stride) per dim).
uint64_t box_bytes(const TensorMap& m);

}  // namespace ptxfu::kernel

namespace ptxfu::kernel {

class Memory;

// Tile mode, global to shared: the box at `coords` (innermost first, signed)
// into `box` in the order it lands in shared memory (innermost fastest,
// before any swizzle); elements outside the tensor are filled (zeros, or
// the canonical NaN where the map asks for NaN). "" or the element address
// no buffer holds.
std::string tensor_load(const TensorMap& m, const int32_t* coords, Memory& mem, std::vector<uint8_t>& box);
// Shared to global: `box` (as tensor_load lays it out) to the tensor at
// `coords`; elements outside the tensor are not written, as the hardware
// clips them.
std::string tensor_store(const TensorMap& m, const int32_t* coords, const uint8_t* box, Memory& mem);
// The shared-memory byte address where byte `addr` of a box lands under a
// swizzle mode: the 16-byte chunk index (address bits 4 and up, 1 to 3 of
// them for 32B to 128B) XORed with the 128-byte row index (bits 7 and up).
inline uint32_t swizzled(uint32_t addr, uint8_t swizzle) {
  if (swizzle == 0) return addr;
  const uint32_t mask = (1u << swizzle) - 1;
  return addr ^ (((addr >> 7) & mask) << 4);
}

}  // namespace ptxfu::kernel
