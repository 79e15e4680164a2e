// Texture sampling as the texture unit computes it: the texel formats, the
// address modes, point and linear filtering with 8-bit fixed-point weights.
// The arithmetic was fitted to, and is checked against, the H100 samples of
// tb/data/hw/h100/texture.tar.xz (tb/kernels/texture_test.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxfu::kernel {

enum class TexelFormat { f32, f16, unorm8, unorm16, u8, u16, u32, s32 };
enum class AddressMode { clamp, wrap, mirror, border };
enum class FilterMode { point, linear };

// A 1D (height 1) or 2D array of one-channel texels and how it is sampled.
struct TextureDesc {
  TexelFormat format = TexelFormat::f32;
  int width = 0, height = 1, dims = 1;
  AddressMode address = AddressMode::clamp;
  FilterMode filter = FilterMode::point;
  bool normalized = false;      // coordinates in [0, 1) of the size, not texels
  std::vector<uint8_t> texels;  // row-major, little-endian, packed
};

// Bytes of one texel of a format.
int texel_bytes(TexelFormat f);
// Parses a format, address or filter name ("f32", "clamp", "linear");
// false when the name is not one of them.
bool parse_texel_format(const std::string& name, TexelFormat& out);
bool parse_address_mode(const std::string& name, AddressMode& out);
bool parse_filter_mode(const std::string& name, FilterMode& out);

// tex.{1d,2d}.v4.f32.f32: the .x channel's binary32 bits at float
// coordinates (y ignored for 1D). Integer formats read as element type
// (point only); unorm formats read as normalised float.
uint32_t sample_f32(const TextureDesc& t, float x, float y);
// tex with integer coordinates: texel (i, j) after the address mode, read as
// point filtering reads it.
uint32_t read_texel(const TextureDesc& t, int i, int j);
// The raw texel at integer coordinates after the address mode (border: 0).
uint32_t fetch_texel(const TextureDesc& t, int i, int j);

}  // namespace ptxfu::kernel
