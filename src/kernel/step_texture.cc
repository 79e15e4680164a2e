// The executor's texture and surface instructions (tex, suld, sust) over the
// objects given at launch (kernel/texture.h).
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "kernel/exec.h"

namespace ptxfu::kernel::detail {

TextureDesc& Exec::object(const Inst& in, unsigned lane) {
  const uint64_t h = read(in.src[0], lane);
  if (h < kObjectHandleBase || h - kObjectHandleBase >= mem_.textures.size())
    fail_object(lane, fmt::format("handle 0x{:x} is not a texture or surface object given at launch", h));
  return mem_.textures[h - kObjectHandleBase];
}

void Exec::fail_object(unsigned lane, const std::string& why) const {
  const Dim3& c = cta_.ctaid;
  throw Fault{fmt::format("{}: error: '{}' by thread ({},{},{}) in block ({},{},{}), warp {}, lane {}: {}",
                          k_.where(*in_), in_->mnemonic, tid(lane, 0), tid(lane, 1), tid(lane, 2), c.x, c.y, c.z,
                          w_.index, lane, why)};
}

uint32_t Exec::coordinate(const Inst& in, unsigned lane, unsigned c) {
  return c < in.tex_dims ? static_cast<uint32_t>(read(k_.elements[in.src[1].reg + c], lane)) : 0;
}

void Exec::tex(const Inst& in, uint32_t exec) {
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1)) continue;
    const TextureDesc& t = object(in, lane);
    const uint32_t x = coordinate(in, lane, 0), y = coordinate(in, lane, 1);
    float fx, fy;
    std::memcpy(&fx, &x, 4), std::memcpy(&fy, &y, 4);
    const uint32_t v =
        in.tex_int_coords ? read_texel(t, static_cast<int32_t>(x), static_cast<int32_t>(y)) : sample_f32(t, fx, fy);
    const uint32_t one = in.tex_int_result ? 1 : 0x3f800000u;
    const uint32_t out[4] = {v, 0, 0, one};
    for (unsigned i = 0; i < 4; ++i) write(k_.elements[in.dst[0].reg + i], lane, out[i]);
  }
}

uint8_t* Exec::surface_bytes(const Inst& in, unsigned lane, TextureDesc& t, unsigned bytes) {
  const int64_t row = int64_t{t.width} * texel_bytes(t.format), rows = t.dims == 1 ? 1 : t.height;
  int64_t x = static_cast<int32_t>(coordinate(in, lane, 0)), y = static_cast<int32_t>(coordinate(in, lane, 1));
  if (t.dims == 1) y = 0;
  if (x < 0 || x + bytes > row || y < 0 || y >= rows) {
    if (in.surface_oob == 2) return nullptr;
    if (in.surface_oob == 0)
      fail_object(lane, fmt::format("surface coordinates ({}, {}) are outside the {}-byte by {}-row surface "
                                    "(.trap)",
                                    x, y, row, rows));
    x = std::clamp<int64_t>(x, 0, row - bytes), y = std::clamp<int64_t>(y, 0, rows - 1);
  }
  return t.texels.data() + y * row + x;
}

void Exec::surface(const Inst& in, uint32_t exec) {
  const unsigned eb = in.access_bytes, n = in.vec;
  const Operand& data = in.kind == Kind::sust ? in.src[2] : in.dst[0];
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1)) continue;
    uint8_t* p = surface_bytes(in, lane, object(in, lane), eb * n);
    for (unsigned i = 0; i < n; ++i) {
      const Operand& o = n == 1 ? data : k_.elements[data.reg + i];
      if (in.kind == Kind::sust) {
        if (p) store_bytes(p + i * eb, eb, read(o, lane));
      } else {
        write(o, lane, p ? load_bytes(p + i * eb, eb) : 0);
      }
    }
  }
}

}  // namespace ptxfu::kernel::detail
