// The host side of tensor_probe.cu: the forms as rows, the PTX ISA fragment
// layouts, the seeded tile generator, packing into per-lane registers, the
// host references (integers, b1, exact-integer float tiles) that check the
// GPU run on the spot, and the writers of numerics_ID.txt and timing_ID.csv.
// Header-only, plain C++17 (nvcc's host compiler builds it into the probe).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace probe {

enum class Ty { f16, bf16, tf32, e4m3, e5m2, f64, s8, u8, s4, u4, b1, f32, s32 };

struct TyInfo {
  Ty ty;
  const char* name;
  int bits;                 // element width in the file and in registers (tf32: the f32 register)
  int exp_bits, frac_bits;  // floating point; 0, 0 for integers
  bool has_inf;             // e4m3 has none: its all-ones code is NaN
};
constexpr TyInfo kTys[] = {
    {Ty::f16, "f16", 16, 5, 10, true},  {Ty::bf16, "bf16", 16, 8, 7, true}, {Ty::tf32, "tf32", 32, 8, 23, true},
    {Ty::e4m3, "e4m3", 8, 4, 3, false}, {Ty::e5m2, "e5m2", 8, 5, 2, true},  {Ty::f64, "f64", 64, 11, 52, true},
    {Ty::s8, "s8", 8, 0, 0, false},     {Ty::u8, "u8", 8, 0, 0, false},     {Ty::s4, "s4", 4, 0, 0, false},
    {Ty::u4, "u4", 4, 0, 0, false},     {Ty::b1, "b1", 1, 0, 0, false},     {Ty::f32, "f32", 32, 8, 23, true},
    {Ty::s32, "s32", 32, 0, 0, false},
};
inline const TyInfo& ty_info(Ty t) { return kTys[static_cast<int>(t)]; }
inline bool is_float(Ty t) { return ty_info(t).exp_bits > 0; }

enum class BitOp { none, xor_popc, and_popc };

// One row per form; register counts as the PTX ISA's fragment tables give
// them (A, B in registers of the element's register width, C/D likewise).
struct FormInfo {
  const char* id;
  const char* ptx;
  int m, n, k;
  Ty a, c;  // A/B element type; C/D element type
  bool satfinite;
  BitOp bitop;
  bool sparse;  // mma.sp: A is M x K with 2:4 structure, K/2 values a row in registers
  int na, nb, nc;
  int default_tiles;
};
// clang-format off
constexpr FormInfo kForms[] = {
  {"f16_f32_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, Ty::f16, Ty::f32, false, BitOp::none, false, 4, 2, 4, 128},
  {"f16_f16_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, Ty::f16, Ty::f16, false, BitOp::none, false, 4, 2, 2, 128},
  {"f16_f32_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, Ty::f16, Ty::f32, false, BitOp::none, false, 2, 1, 4, 64},
  {"f16_f16_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", 16, 8, 8, Ty::f16, Ty::f16, false, BitOp::none, false, 2, 1, 2, 64},
  {"bf16_f32_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, Ty::bf16, Ty::f32, false, BitOp::none, false, 4, 2, 4, 128},
  {"bf16_f32_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", 16, 8, 8, Ty::bf16, Ty::f32, false, BitOp::none, false, 2, 1, 4, 64},
  {"tf32_f32_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, Ty::tf32, Ty::f32, false, BitOp::none, false, 4, 2, 4, 128},
  {"tf32_f32_m16n8k4", "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, 4, Ty::tf32, Ty::f32, false, BitOp::none, false, 2, 1, 4, 64},
  {"e4m3_f32_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 16, 8, 32, Ty::e4m3, Ty::f32, false, BitOp::none, false, 4, 2, 4, 128},
  {"e5m2_f32_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", 16, 8, 32, Ty::e5m2, Ty::f32, false, BitOp::none, false, 4, 2, 4, 128},
  {"e4m3_f16_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", 16, 8, 32, Ty::e4m3, Ty::f16, false, BitOp::none, false, 4, 2, 2, 128},
  {"e5m2_f16_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16", 16, 8, 32, Ty::e5m2, Ty::f16, false, BitOp::none, false, 4, 2, 2, 128},
  {"e4m3_f32_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32", 16, 8, 16, Ty::e4m3, Ty::f32, false, BitOp::none, false, 2, 1, 4, 64},
  {"f64_m8n8k4", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, Ty::f64, Ty::f64, false, BitOp::none, false, 1, 1, 2, 64},
  {"f64_m16n8k4", "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64", 16, 8, 4, Ty::f64, Ty::f64, false, BitOp::none, false, 2, 1, 4, 64},
  {"f64_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", 16, 8, 8, Ty::f64, Ty::f64, false, BitOp::none, false, 4, 2, 4, 64},
  {"f64_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64", 16, 8, 16, Ty::f64, Ty::f64, false, BitOp::none, false, 8, 4, 4, 64},
  {"s8_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 16, 8, 32, Ty::s8, Ty::s32, false, BitOp::none, false, 4, 2, 4, 48},
  {"s8_sat_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", 16, 8, 32, Ty::s8, Ty::s32, true, BitOp::none, false, 4, 2, 4, 48},
  {"u8_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32", 16, 8, 32, Ty::u8, Ty::s32, false, BitOp::none, false, 4, 2, 4, 48},
  {"u8_sat_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32", 16, 8, 32, Ty::u8, Ty::s32, true, BitOp::none, false, 4, 2, 4, 48},
  {"s8_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", 16, 8, 16, Ty::s8, Ty::s32, false, BitOp::none, false, 2, 1, 4, 32},
  {"s4_m16n8k64", "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", 16, 8, 64, Ty::s4, Ty::s32, false, BitOp::none, false, 4, 2, 4, 32},
  {"s4_sat_m16n8k64", "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32", 16, 8, 64, Ty::s4, Ty::s32, true, BitOp::none, false, 4, 2, 4, 32},
  {"u4_m16n8k64", "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32", 16, 8, 64, Ty::u4, Ty::s32, false, BitOp::none, false, 4, 2, 4, 32},
  {"u4_sat_m16n8k64", "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32", 16, 8, 64, Ty::u4, Ty::s32, true, BitOp::none, false, 4, 2, 4, 32},
  {"b1_xor_m16n8k256", "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", 16, 8, 256, Ty::b1, Ty::s32, false, BitOp::xor_popc, false, 4, 2, 4, 24},
  {"b1_and_m16n8k256", "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", 16, 8, 256, Ty::b1, Ty::s32, false, BitOp::and_popc, false, 4, 2, 4, 24},
  {"sp_f16_f32_m16n8k32", "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", 16, 8, 32, Ty::f16, Ty::f32, false, BitOp::none, true, 4, 4, 4, 96},
  {"sp_f16_f16_m16n8k32", "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16", 16, 8, 32, Ty::f16, Ty::f16, false, BitOp::none, true, 4, 4, 2, 96},
};
// clang-format on

inline const FormInfo* find_form(const std::string& id) {
  for (const FormInfo& f : kForms) {
    if (id == f.id) return &f;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8kK" and
// mma.m8n8k4 .f64). With groupID g = lane >> 2, threadID_in_group t = lane % 4
// and `per` elements a 32-bit register (1 for tf32 and f64), every m16n8 form
// of the ISA follows one rule: A register r, element e is row g + 8 (r & 1),
// column t per + e + 4 per (r >> 1); B register r, element e is row
// t per + e + 4 per r, column g; C/D element i is row g + 8 (i >> 1), column
// 2 t + (i & 1). m8n8k4 .f64 is the same with M = 8. A sparse A is the
// compressed M x K/2 matrix laid out as the dense m16n8k(K/2) A.

inline int per_reg(Ty t) { return ty_info(t).bits >= 32 ? 1 : 32 / ty_info(t).bits; }
inline int reg_bits(Ty t) { return ty_info(t).bits == 64 ? 64 : 32; }

struct Pos {
  int row, col;
};
inline Pos a_pos(int lane, int r, int e, Ty t) {
  const int g = lane >> 2, tg = lane & 3, per = per_reg(t);
  return {g + 8 * (r & 1), tg * per + e + 4 * per * (r >> 1)};
}
inline Pos b_pos(int lane, int r, int e, Ty t) {
  const int g = lane >> 2, tg = lane & 3, per = per_reg(t);
  return {tg * per + e + 4 * per * r, g};
}
inline Pos c_pos(int lane, int i) { return {(lane >> 2) + 8 * (i >> 1), 2 * (lane & 3) + (i & 1)}; }
// C/D elements a register: two f16 in an f16x2, else one.
inline int c_per_reg(Ty c) { return c == Ty::f16 ? 2 : 1; }

inline int words_a(const FormInfo& f) { return f.na * reg_bits(f.a) / 32; }
inline int words_b(const FormInfo& f) { return f.nb * reg_bits(f.a) / 32; }
inline int words_c(const FormInfo& f) { return f.nc * reg_bits(f.c) / 32; }
inline int words_in(const FormInfo& f) { return words_a(f) + words_b(f) + words_c(f) + 1; }
// The A the registers hold: M x K, or M x K/2 compressed for mma.sp.
inline int a_cols(const FormInfo& f) { return f.sparse ? f.k / 2 : f.k; }

// ---------------------------------------------------------------------------
// Tiles.

struct Tile {
  std::string kind;                  // how it was made (exact, random_wide, edge_specials, ...)
  std::vector<uint64_t> a, b, c, d;  // logical, row-major: A M x K, B K x N, C and D M x N
  std::vector<uint64_t> a_packed;    // mma.sp: the compressed M x K/2 A the registers hold
  int meta_nibble = 0;               // mma.sp: one 4-bit metadata pattern for every chunk of 4
};
struct TileSet {
  std::vector<Tile> tiles;
};

// splitmix64: a seeded, portable generator.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int range(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }
  bool chance(int percent) { return int(next() % 100) < percent; }
};

inline uint64_t mask_bits(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

// Float codes. The file width of tf32 is its f32 register.
struct Fmt {
  int e, f;
  bool inf;
  int bias() const { return (1 << (e - 1)) - 1; }
  int max_code() const { return (1 << e) - (inf ? 2 : 1); }
};
inline Fmt fmt_of(Ty t) {
  const TyInfo& i = ty_info(t);
  if (t == Ty::tf32) return {8, 10, true};
  return {i.exp_bits, i.frac_bits, i.has_inf};
}
inline uint64_t pack_float(const Fmt& m, uint64_t sign, uint64_t exp, uint64_t frac) {
  uint64_t v = (sign << (m.e + m.f)) | (exp << m.f) | frac;
  if (!m.inf && exp == uint64_t(m.max_code()) && frac == mask_bits(m.f)) v -= 1;  // e4m3: not the NaN
  return v;
}
// tf32 values sit in the top 19 bits of an f32 register.
inline uint64_t to_register(Ty t, uint64_t code) { return t == Ty::tf32 ? code << 13 : code; }

inline uint64_t random_float(Ty t, Rng& r, int exp_lo, int exp_hi) {
  const Fmt m = fmt_of(t);
  const int e = std::max(0, std::min(m.max_code(), r.range(exp_lo, exp_hi)));
  return to_register(t, pack_float(m, r.next() & 1, uint64_t(e), r.next() & mask_bits(m.f)));
}
inline uint64_t special_float(Ty t, int which) {
  const Fmt m = fmt_of(t);
  const uint64_t top = uint64_t(1) << (m.e + m.f), allexp = mask_bits(m.e);
  uint64_t v = 0;
  switch (which % 8) {
    case 0: v = (allexp << m.f) | (uint64_t(1) << (m.f - 1)); break;                            // NaN
    case 1: v = m.inf ? allexp << m.f : pack_float(m, 0, m.max_code(), mask_bits(m.f)); break;  // +Inf
    case 2: v = top | (m.inf ? allexp << m.f : pack_float(m, 0, m.max_code(), mask_bits(m.f))); break;
    case 3: v = 0; break;                                               // +0
    case 4: v = top; break;                                             // -0
    case 5: v = pack_float(m, 0, m.max_code(), mask_bits(m.f)); break;  // max finite
    case 6: v = top | pack_float(m, 0, m.max_code(), mask_bits(m.f)); break;
    default: v = 1; break;  // min subnormal
  }
  if (!m.inf && (which % 8) == 0) v = mask_bits(m.e + m.f);  // e4m3 NaN: S.1111.111
  return to_register(t, v);
}

// The value of a float code (finite), and the nearest code to a double
// (ties to even, subnormals kept, overflow to infinity or e4m3's max).
inline double decode(Ty t, uint64_t bits) {
  const Fmt m = fmt_of(t);
  if (t == Ty::tf32) bits >>= 13;
  const int exp = int((bits >> m.f) & mask_bits(m.e));
  const double frac = double(bits & mask_bits(m.f));
  const double mag =
      exp == 0 ? std::ldexp(frac, 1 - m.bias() - m.f) : std::ldexp(frac + std::ldexp(1.0, m.f), exp - m.bias() - m.f);
  return (bits >> (m.e + m.f)) & 1 ? -mag : mag;
}
inline uint64_t encode(Ty t, double v) {
  const Fmt m = fmt_of(t);
  const uint64_t sign = std::signbit(v) ? 1 : 0;
  double a = std::fabs(v);
  uint64_t code = 0;
  if (a != 0) {
    int e2;
    std::frexp(a, &e2);                                     // a = x 2^e2, x in [0.5, 1)
    const int unit = std::max(e2 - 1, 1 - m.bias()) - m.f;  // the ulp's exponent
    const double q = std::nearbyint(std::ldexp(a, -unit));  // ties to even (default rounding)
    const uint64_t mag = uint64_t(q);
    const int exp_field = mag >> m.f == 0 ? 0 : unit + m.f + m.bias() + (mag >> (m.f + 1) ? 1 : 0);
    const uint64_t frac = mag >> (m.f + 1) ? (mag >> 1) & mask_bits(m.f) : mag & mask_bits(m.f);
    if (exp_field > m.max_code() || (!m.inf && exp_field == m.max_code() && frac == mask_bits(m.f)))
      code = m.inf ? mask_bits(m.e) << m.f : pack_float(m, 0, m.max_code(), mask_bits(m.f));
    else
      code = (uint64_t(exp_field) << m.f) | frac;
  }
  return to_register(t, (sign << (m.e + m.f)) | code);
}

inline int64_t int_value(Ty t, uint64_t bits) {
  const int w = ty_info(t).bits;
  if (t == Ty::s8 || t == Ty::s4 || t == Ty::s32) return int64_t(bits << (64 - w)) >> (64 - w);
  return int64_t(bits);
}

}  // namespace probe

#include "probe_tiles.h"
