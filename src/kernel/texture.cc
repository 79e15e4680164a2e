// Texture sampling: the rules were fitted to the H100 samples of
// tb/data/hw/h100/texture.tar.xz and agree with every one of them.
#include "kernel/texture.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "fp/fast_path.h"

namespace ptxfu::kernel {
namespace {

struct FormatRow {
  TexelFormat format;
  const char* name;
  int bytes;
};
constexpr FormatRow kFormats[] = {
    {TexelFormat::f32, "f32", 4},         {TexelFormat::f16, "f16", 2}, {TexelFormat::unorm8, "unorm8", 1},
    {TexelFormat::unorm16, "unorm16", 2}, {TexelFormat::u8, "u8", 1},   {TexelFormat::u16, "u16", 2},
    {TexelFormat::u32, "u32", 4},         {TexelFormat::s32, "s32", 4},
};

double half_value(uint32_t h) {
  const int e = static_cast<int>((h >> 10) & 0x1f), m = static_cast<int>(h & 0x3ff);
  const double mag = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -mag : mag;
}

// A filtered f16 texture's result is rounded to f16 precision, ties away from
// zero (the H100 samples' ties all went that way).
double round_to_half(double v) {
  if (v == 0 || !std::isfinite(v)) return v;
  int e;
  std::frexp(v, &e);  // |v| in [2^(e-1), 2^e)
  const double ulp = std::ldexp(1.0, std::max(e - 11, -24));
  const double q = std::floor(std::fabs(v) / ulp + 0.5) * ulp;
  return v < 0 ? -q : q;
}

// The texel index an address mode gives for index i of n; -1: the border.
int address(int i, int n, AddressMode mode) {
  switch (mode) {
    case AddressMode::clamp: return i < 0 ? 0 : i >= n ? n - 1 : i;
    case AddressMode::wrap: return ((i % n) + n) % n;
    case AddressMode::mirror: {
      const int m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case AddressMode::border: return i < 0 || i >= n ? -1 : i;
  }
  return -1;
}

// A texel as the filter weighs it: floats as their value, unorm formats as
// 16-bit fixed point (8-bit texels widened by replication).
double filter_value(const TextureDesc& t, uint32_t raw) {
  switch (t.format) {
    case TexelFormat::f32: return fp::fast::float_of(raw);
    case TexelFormat::f16: return half_value(raw);
    case TexelFormat::unorm8: return raw * 257.0;
    default: return raw;
  }
}

uint32_t point_result(const TextureDesc& t, uint32_t raw) {
  switch (t.format) {
    case TexelFormat::f32: return raw;
    case TexelFormat::f16: return fp::fast::bits_of(static_cast<float>(half_value(raw)));
    case TexelFormat::unorm8: return fp::fast::bits_of(static_cast<float>(raw) / 255.0f);
    case TexelFormat::unorm16: return fp::fast::bits_of(static_cast<float>(raw) / 65535.0f);
    default: return raw;  // integer formats read as element type
  }
}

// Bilinear filtering: the fractions to 8 bits, the corner weight rounded from
// their product, the others what is left of each fraction, all summing to 256.
uint32_t linear_result(const TextureDesc& t, double x, double y) {
  const double xs = x - 0.5, ys = y - 0.5;
  const int i = static_cast<int>(std::floor(xs)), j = static_cast<int>(std::floor(ys));
  const int ka = static_cast<int>(std::floor((xs - i) * 256 + 0.5));
  const int kb = static_cast<int>(std::floor((ys - j) * 256 + 0.5));
  const int w11 = (ka * kb + 128) / 256, w10 = ka - w11, w01 = kb - w11, w00 = 256 - ka - kb + w11;
  auto v = [&](int di, int dj) { return filter_value(t, fetch_texel(t, i + di, j + dj)); };
  const double s = (w00 * v(0, 0) + w10 * v(1, 0) + w01 * v(0, 1) + w11 * v(1, 1)) / 256;
  switch (t.format) {
    case TexelFormat::f32: return fp::fast::bits_of(static_cast<float>(s));
    case TexelFormat::f16: return fp::fast::bits_of(static_cast<float>(round_to_half(s)));
    default: return fp::fast::bits_of(static_cast<float>(std::floor(s + 0.5) / 65535.0));  // 16-bit unorm result
  }
}

}  // namespace

int texel_bytes(TexelFormat f) {
  for (const FormatRow& r : kFormats)
    if (r.format == f) return r.bytes;
  return 4;
}

bool parse_texel_format(const std::string& name, TexelFormat& out) {
  for (const FormatRow& r : kFormats)
    if (name == r.name) return out = r.format, true;
  return false;
}

bool parse_address_mode(const std::string& name, AddressMode& out) {
  const char* const names[] = {"clamp", "wrap", "mirror", "border"};
  for (int k = 0; k < 4; ++k)
    if (name == names[k]) return out = static_cast<AddressMode>(k), true;
  return false;
}

bool parse_filter_mode(const std::string& name, FilterMode& out) {
  if (name == "point") return out = FilterMode::point, true;
  if (name == "linear") return out = FilterMode::linear, true;
  return false;
}

uint32_t read_texel(const TextureDesc& t, int i, int j) { return point_result(t, fetch_texel(t, i, j)); }

uint32_t fetch_texel(const TextureDesc& t, int i, int j) {
  const int height = t.dims == 1 ? 1 : t.height;
  const int ii = address(i, t.width, t.address), jj = address(j, height, t.address);
  if (ii < 0 || jj < 0) return 0;  // border colour 0
  const int size = texel_bytes(t.format);
  const size_t at = (static_cast<size_t>(jj) * t.width + ii) * size;
  uint32_t raw = 0;
  if (at + size <= t.texels.size()) std::memcpy(&raw, &t.texels[at], size);
  return raw;
}

// A 1D texture is sampled as a 2D one of height 1 at y = 0: with the border
// mode its linear filter weighs the border row by half, as the H100 does.
uint32_t sample_f32(const TextureDesc& t, float x, float y) {
  if (t.dims == 1) y = 0;
  if (t.normalized) {
    x = x * static_cast<float>(t.width);
    if (t.dims == 2) y = y * static_cast<float>(t.height);
  }
  if (t.filter == FilterMode::point)
    return point_result(t, fetch_texel(t, static_cast<int>(std::floor(x)), static_cast<int>(std::floor(y))));
  return linear_result(t, x, y);
}

}  // namespace ptxfu::kernel
