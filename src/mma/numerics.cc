#include "mma/numerics.h"

#include <iterator>
#include <stdexcept>
#include <string>

namespace ptxfu::mma {
namespace {

using fp::Rounding;
constexpr uint8_t kMma = static_cast<uint8_t>(Family::mma_sync);
constexpr uint8_t kWmma = static_cast<uint8_t>(Family::wmma);
constexpr uint8_t kWgmma = static_cast<uint8_t>(Family::wgmma);
constexpr uint8_t kSync = kMma | kWmma;  // mma.sync and wmma share the datapath
constexpr int kNoTruncation = 63;        // sum_frac_bits: the block sum goes to the output rounding whole

// The carry bits a block of `width` products plus c needs above a leading
// bit for its exact sum (products' significands lie in [0, 4)). choice: the
// rows take this; no measurement has shown a block sum wrapping.
constexpr int exact_carry_bits(int width) {
  int bits = 2;
  while ((1 << (bits - 2)) < width + 1) ++bits;
  return bits;
}

// Shorthands for the rows below.
constexpr NumericsRow block(uint16_t first, uint16_t last, uint8_t fam, Elem in, Elem out, int width, int kept,
                            int sum_bits, Rounding rnd, std::string_view source) {
  NumericsRow r{};
  r.sm_first = first, r.sm_last = last, r.families = fam, r.in = in, r.out = out;
  r.method = Method::block_fma;
  r.block_width = width, r.kept_bits = kept, r.carry_bits = exact_carry_bits(width);
  r.c_align = CAlign::with_block, r.c_rounding = rnd;
  r.sum_frac_bits = sum_bits, r.out_rounding = rnd;
  r.subnormals = true, r.k_split = 1, r.k_group = 0, r.datapath_in = in, r.truncate_inputs = in == Elem::tf32;
  r.invalid_nan = 0;
  r.source = source;
  return r;
}
// sm_90/sm_100 mma.sync fp8 (no native fp8 there: measured, see the rows):
// the fp8 operands widened to f16 and run as two `f16` instructions of K/2
// (H100 SASS: two HMMA.16816 for m16n8k32, two HMMA.1688 for m16n8k16), k
// mod 4 in {0, 1} to the first, {2, 3} to the second, chained from +0 as
// that row rounds, then c added rounded to nearest even.
constexpr NumericsRow fp8_via_f16(NumericsRow f16, Elem in, uint8_t fam, std::string_view source) {
  NumericsRow r = f16;
  r.in = in, r.families = fam, r.datapath_in = Elem::f16;
  r.k_split = 2, r.k_group = 2;
  r.c_align = CAlign::separate, r.c_rounding = Rounding::rn;
  r.source = source;
  return r;
}
// A row restricted to the targets first..last.
constexpr NumericsRow on(uint16_t first, uint16_t last, NumericsRow r) {
  r.sm_first = first, r.sm_last = last;
  return r;
}
// f64 and integer rows: no blocks, no alignment.
constexpr NumericsRow exact(uint16_t first, uint16_t last, uint8_t fam, Elem in, Elem out, Method m,
                            std::string_view source) {
  NumericsRow r = block(first, last, fam, in, out, 1, 0, kNoTruncation, Rounding::rn, source);
  r.method = m;
  return r;
}

// f64 DMMA: a chain of RNE fmas; H100 probe: inf * 0 and inf - inf give
// 0xfff8000000000000 (sign set, quiet bit only), a NaN operand
// 0x7ff8000000000000 comes out as it went in (the probe's only NaN operand:
// that other payloads and signs propagate quietened is the choice).
constexpr NumericsRow f64_chain(uint16_t first, uint16_t last, uint8_t fam, std::string_view source) {
  NumericsRow r = exact(first, last, fam, Elem::f64, Elem::f64, Method::fma_chain, source);
  r.invalid_nan = 0xfff8000000000000ULL;
  return r;
}

// The f16 rows of sm_90 and sm_100, which their mma.sync fp8 rows reuse.
constexpr NumericsRow kHopperF16F32 =
    block(90, 90, kSync | kWgmma, Elem::f16, Elem::f32, 16, 25, kNoTruncation, Rounding::rz,
          "Khattak & Mikaitis arXiv:2512.07004, MMA-Sim arXiv:2511.10909; H100 wmma vectors: 5000/5000; "
          "H100 probe mma.sync m16n8k16/k8: 192/192 tiles, sparse m16n8k32: 96/96. "
          "choice: wgmma as wmma (the f16/bf16/tf32 vectors are wmma)");
constexpr NumericsRow kHopperF16F16 =
    block(90, 90, kSync | kWgmma, Elem::f16, Elem::f16, 16, 25, kNoTruncation, Rounding::rn,
          "Khattak & Mikaitis arXiv:2512.07004; H100 wmma fp16->fp16 vectors: 5000/5000; H100 probe mma.sync "
          "m16n8k16/k8: 192/192 tiles, sparse m16n8k32: 96/96. choice: wgmma as wmma");
constexpr NumericsRow kBlackwellF16F32 =
    block(100, 121, kSync, Elem::f16, Elem::f32, 16, 25, kNoTruncation, Rounding::rz,
          "Khattak & Mikaitis arXiv:2512.07004; B200 wmma vectors: 5000/5000. choice: sm_120 as sm_100");
constexpr NumericsRow kBlackwellF16F16 =
    block(100, 121, kSync, Elem::f16, Elem::f16, 16, 25, kNoTruncation, Rounding::rn,
          "Khattak & Mikaitis arXiv:2512.07004; B200 wmma fp16->fp16 vectors: 5000/5000. choice: sm_120 as sm_100");

// clang-format off
constexpr NumericsRow kRows[] = {
  // Volta: 4 products + c a block, 23 bits kept (no extra alignment bit).
  block(70, 72, kSync, Elem::f16, Elem::f32, 4, 23, kNoTruncation, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004, Fasi et al. PeerJ CS 7:e330; V100 wmma vectors: 5000/5000. "
        "choice: sm_72 as sm_70"),
  block(70, 72, kSync, Elem::f16, Elem::f16, 4, 23, kNoTruncation, Rounding::rn,
        "Khattak & Mikaitis arXiv:2512.07004; V100 wmma fp16->fp16 vectors: 5000/5000"),
  // Turing to Ada: 8 products a block, 1 extra alignment bit (24 kept).
  block(75, 89, kSync, Elem::f16, Elem::f32, 8, 24, kNoTruncation, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004, FTTN arXiv:2403.00232; A100 and Ada wmma vectors: 5000/5000 each. "
        "choice: sm_75/sm_86/sm_87 as sm_80 (not measured here)"),
  block(75, 89, kSync, Elem::f16, Elem::f16, 8, 24, kNoTruncation, Rounding::rn,
        "Khattak & Mikaitis arXiv:2512.07004; A100 and Ada wmma fp16->fp16 vectors: 5000/5000 each"),
  block(80, 89, kSync, Elem::bf16, Elem::f32, 8, 24, kNoTruncation, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004; A100 and Ada wmma bf16 vectors: 5000/5000 each"),
  block(80, 89, kSync, Elem::tf32, Elem::f32, 4, 24, kNoTruncation, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004; A100 and Ada wmma tf32 vectors (K = 4): 5000/5000 each"),
  // Ada fp8: 16 products a block, the block sum truncated to 13 fraction bits.
  block(89, 89, kMma, Elem::e4m3, Elem::f32, 16, 13, 13, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004 (AdaTC: fma 16, 13-bit sum); Ada mma.sync k32 vectors: 5000/5000"),
  block(89, 89, kMma, Elem::e5m2, Elem::f32, 16, 13, 13, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004 (AdaTC: fma 16, 13-bit sum); Ada mma.sync k32 vectors: 5000/5000"),
  block(89, 89, kMma, Elem::e4m3, Elem::f16, 16, 13, kNoTruncation, Rounding::rn,
        "Khattak & Mikaitis arXiv:2512.07004; Ada mma.sync fp8->fp16 k32 vectors: 5000/5000"),
  block(89, 89, kMma, Elem::e5m2, Elem::f16, 16, 13, kNoTruncation, Rounding::rn,
        "Khattak & Mikaitis arXiv:2512.07004; Ada mma.sync fp8->fp16 k32 vectors: 5000/5000"),
  // Hopper: 16 products a block, 2 extra alignment bits (25 kept); tf32 8.
  kHopperF16F32,
  kHopperF16F16,
  block(90, 90, kSync | kWgmma, Elem::bf16, Elem::f32, 16, 25, kNoTruncation, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004; H100 wmma bf16 vectors: 5000/5000; H100 probe mma.sync "
        "m16n8k16/k8: 192/192 tiles. choice: wgmma as wmma"),
  block(90, 90, kSync | kWgmma, Elem::tf32, Elem::f32, 8, 25, kNoTruncation, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004; H100 wmma tf32 vectors (K = 4, half a block): 5000/5000; "
        "H100 probe mma.sync m16n8k8/k4: 192/192 tiles. choice: wgmma as wmma"),
  // Hopper fp8 (wgmma): 32 products a block, 13-bit sum.
  block(90, 90, kWgmma, Elem::e4m3, Elem::f32, 32, 13, 13, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004 (H100TC: fma 32, 13-bit sum); H100 wgmma vectors, c = 0: 5000/5000"),
  block(90, 90, kWgmma, Elem::e5m2, Elem::f32, 32, 13, 13, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004 (H100TC); H100 wgmma vectors, c = 0: 5000/5000"),
  block(90, 90, kWgmma, Elem::e4m3, Elem::f16, 32, 13, kNoTruncation, Rounding::rn,
        "choice: as wgmma fp8->f32, rounded to f16 (not measured: the fp8->fp16 vectors are mma.sync)"),
  block(90, 90, kWgmma, Elem::e5m2, Elem::f16, 32, 13, kNoTruncation, Rounding::rn,
        "choice: as wgmma fp8->f32, rounded to f16 (not measured: the fp8->fp16 vectors are mma.sync)"),
  // Hopper mma.sync fp8: no fp8 datapath behind it but the f16 one (see
  // fp8_via_f16; the probe's SASS shows the HMMAs). The published models
  // reproduce 3113 (e4m3) and 3340 (e5m2) of these 5000 lines; this rule
  // all of them, and every probe tile.
  fp8_via_f16(kHopperF16F16, Elem::e4m3, kMma,
              "H100 mma.sync.m16n8k32.f16.e4m3.e4m3.f16 vectors (c used, not 0): 5000/5000 (fit to the vectors); "
              "H100 probe m16n8k32: 128/128 tiles"),
  fp8_via_f16(kHopperF16F16, Elem::e5m2, kMma,
              "H100 mma.sync.m16n8k32.f16.e5m2.e5m2.f16 vectors (c used, not 0): 5000/5000 (fit to the vectors); "
              "H100 probe m16n8k32: 128/128 tiles"),
  fp8_via_f16(kHopperF16F32, Elem::e4m3, kMma,
              "H100 probe (tensor_probe, tb/data/tensor-probe-h100.tar.xz): m16n8k32 128/128 tiles, "
              "m16n8k16 64/64 (two HMMA.1688 in its SASS)"),
  fp8_via_f16(kHopperF16F32, Elem::e5m2, kMma,
              "H100 probe (tensor_probe, tb/data/tensor-probe-h100.tar.xz): m16n8k32 128/128 tiles. "
              "choice: m16n8k16 as e4m3's (measured)"),
  // Blackwell: 16 products a block (tf32 8), 25 kept.
  kBlackwellF16F32,
  kBlackwellF16F16,
  block(100, 121, kSync, Elem::bf16, Elem::f32, 16, 25, kNoTruncation, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004; B200 wmma bf16 vectors: 5000/5000. choice: sm_120 as sm_100"),
  block(100, 121, kSync, Elem::tf32, Elem::f32, 8, 25, kNoTruncation, Rounding::rz,
        "Khattak & Mikaitis arXiv:2512.07004; B200 wmma tf32 vectors: 5000/5000. choice: sm_120 as sm_100"),
  // Blackwell mma.sync fp8: through the f16 datapath as on Hopper. The
  // published model (one block of 32, 25 bits, RZ) reproduces 3207 (e4m3)
  // and 3236 (e5m2) of the 5000 f32 lines; this rule all of them, and all
  // of the f16 ones (which no published model reproduces).
  fp8_via_f16(kBlackwellF16F32, Elem::e4m3, kMma,
              "B200 mma.sync fp8->fp32 vectors: 5000/5000 (fit to the vectors). "
              "choice: sm_120 as sm_100"),
  fp8_via_f16(kBlackwellF16F32, Elem::e5m2, kMma,
              "B200 mma.sync fp8->fp32 vectors: 5000/5000 (fit to the vectors). "
              "choice: sm_120 as sm_100"),
  fp8_via_f16(kBlackwellF16F16, Elem::e4m3, kMma,
              "B200 mma.sync fp8->fp16 vectors: 5000/5000 (fit to the vectors). "
              "choice: sm_120 as sm_100"),
  fp8_via_f16(kBlackwellF16F16, Elem::e5m2, kMma,
              "B200 mma.sync fp8->fp16 vectors: 5000/5000 (fit to the vectors). "
              "choice: sm_120 as sm_100"),
  // fp6/fp4 (kind::f8f6f4, sm_120): no vectors; their values are f16 values too.
  on(120, 121, fp8_via_f16(kBlackwellF16F32, Elem::e3m2, kMma, "choice: as B200 mma.sync fp8->fp32 (not measured)")),
  on(120, 121, fp8_via_f16(kBlackwellF16F32, Elem::e2m3, kMma, "choice: as B200 mma.sync fp8->fp32 (not measured)")),
  on(120, 121, fp8_via_f16(kBlackwellF16F32, Elem::e2m1, kMma, "choice: as B200 mma.sync fp8->fp32 (not measured)")),
  // f64: IEEE fmas in ascending k from c; NaN operands propagate, an
  // invalid operation gives 0xfff8000000000000.
  f64_chain(80, 121, kMma | kWmma,
            "PTX ISA (mma and wmma .f64: fma semantics); H100 probe (m8n8k4, m16n8k4/k8/k16): 256/256 tiles, NaNs "
            "included (docs/mma.md). choice: sm_80..sm_89 and sm_100+ as sm_90 (not measured)"),
  // Integers: exact products and sum modulo 2^32, or clamped with .satfinite.
  exact(72, 121, kSync, Elem::s8, Elem::s32, Method::integer,
        "PTX ISA mma/wmma integer semantics (exact, wrapping); H100 probe with extremes, .satfinite: 128/128 tiles"),
  exact(72, 121, kSync, Elem::u8, Elem::s32, Method::integer,
        "PTX ISA mma/wmma integer semantics (exact, wrapping); H100 probe with extremes, .satfinite: 96/96 tiles"),
  exact(90, 90, kWgmma, Elem::s8, Elem::s32, Method::integer, "PTX ISA wgmma integer semantics (exact, wrapping)"),
  exact(90, 90, kWgmma, Elem::u8, Elem::s32, Method::integer, "PTX ISA wgmma integer semantics (exact, wrapping)"),
  exact(75, 121, kSync, Elem::s4, Elem::s32, Method::integer,
        "PTX ISA mma/wmma integer semantics (exact, wrapping); H100 probe with extremes, .satfinite: 64/64 tiles"),
  exact(75, 121, kSync, Elem::u4, Elem::s32, Method::integer,
        "PTX ISA mma/wmma integer semantics (exact, wrapping); H100 probe with extremes, .satfinite: 64/64 tiles"),
};
// clang-format on

// mma with block scaling (sm_120a/sm_121a, .kind::mxf4 and .kind::mxf4nvf4):
// four exact sums of 16 e2m1 products, each scaled, fused with c at 35 bits,
// the f32 result truncated.
constexpr NumericsRow block_scaled(uint16_t first, uint16_t last, Elem in, Elem out, int run, int kept,
                                   std::string_view source) {
  NumericsRow r = block(first, last, kMma, in, out, run, kept, kNoTruncation, Rounding::rz, source);
  r.method = Method::block_scaled;
  return r;
}
constexpr NumericsRow kScaledRows[] = {
    block_scaled(120, 121, Elem::e2m1, Elem::f32, 16, 35,
                 "MMA-Sim arXiv:2511.10909 (RTX Blackwell mma kind::mxf4*: runs of 16 products summed exactly, "
                 "each times its scales, fused with c at 35 fraction bits, RZ to f32). choice: not measured here; "
                 "ue4m3's sign bit ignored, a NaN scale or c gives the canonical NaN, c = +-inf passes through"),
};

// The engine sums a block exactly in 64 bits: the addends are below
// 2^(kept + 2) (products' significands lie in [0, 4)) and a block has at
// most width + 1 of them; the rows' carry bits must cover that sum.
constexpr bool carries_fit() {
  for (const NumericsRow& r : kRows) {
    if (r.method != Method::block_fma) continue;
    if (r.carry_bits < exact_carry_bits(r.block_width) || r.kept_bits + r.carry_bits > 62 || r.block_width > 64)
      return false;
  }
  return true;
}
static_assert(carries_fit(), "a row's carry bits do not cover its block sum");

// An fma chain's invalid NaN must be a NaN of its format (f64 only).
constexpr bool invalid_nans_set() {
  for (const NumericsRow& r : kRows) {
    if (r.method == Method::fma_chain &&
        (r.out != Elem::f64 || (r.invalid_nan & 0x7ff8000000000000ULL) != 0x7ff8000000000000ULL))
      return false;
  }
  return true;
}
static_assert(invalid_nans_set(), "an fma-chain row lacks its quiet invalid-operation NaN");

struct ElemInfo {
  Elem e;
  std::string_view name;
  const fp::Format* format;
};
constexpr ElemInfo kElems[] = {
    {Elem::f16, "f16", &fp::kF16},    {Elem::bf16, "bf16", &fp::kBF16}, {Elem::tf32, "tf32", &fp::kTF32},
    {Elem::e4m3, "e4m3", &fp::kE4M3}, {Elem::e5m2, "e5m2", &fp::kE5M2}, {Elem::e3m2, "e3m2", &fp::kE3M2},
    {Elem::e2m3, "e2m3", &fp::kE2M3}, {Elem::e2m1, "e2m1", &fp::kE2M1}, {Elem::f32, "f32", &fp::kF32},
    {Elem::f64, "f64", &fp::kF64},    {Elem::s8, "s8", nullptr},        {Elem::u8, "u8", nullptr},
    {Elem::s4, "s4", nullptr},        {Elem::u4, "u4", nullptr},        {Elem::s32, "s32", nullptr},
};

}  // namespace

const fp::Format* format_of(Elem e) { return kElems[static_cast<int>(e)].format; }
bool is_integer(Elem e) { return format_of(e) == nullptr; }
std::string_view elem_name(Elem e) { return kElems[static_cast<int>(e)].name; }

bool parse_elem(std::string_view name, Elem* out) {
  for (const ElemInfo& i : kElems) {
    if (i.name == name) return *out = i.e, true;
  }
  return false;
}

const NumericsRow* find_row(int sm, Family family, Elem in, Elem out) {
  for (const NumericsRow& r : kRows) {
    if (sm >= r.sm_first && sm <= r.sm_last && (r.families & static_cast<uint8_t>(family)) && r.in == in &&
        r.out == out)
      return &r;
  }
  return nullptr;
}

RowTable numerics_rows() { return {kRows, std::size(kRows)}; }

const NumericsRow* find_block_scaled_row(int sm, Elem in, Elem out) {
  for (const NumericsRow& r : kScaledRows)
    if (sm >= r.sm_first && sm <= r.sm_last && r.in == in && r.out == out) return &r;
  return nullptr;
}

bool parse_scale_type(std::string_view name, ScaleType* out) {
  if (name == "ue8m0") return *out = ScaleType::ue8m0, true;
  if (name == "ue4m3") return *out = ScaleType::ue4m3, true;
  return false;
}

int min_carry_bits(int width) { return exact_carry_bits(width); }

BlockParams block_params(const NumericsRow& row) {
  return {row.block_width, row.kept_bits, row.carry_bits, row.sum_frac_bits, row.out_rounding};
}

NumericsRow custom_row(const NumericsRow& base, const BlockParams& p) {
  const auto bad = [](const std::string& why) { throw std::invalid_argument("numerics parameters: " + why); };
  if (base.method != Method::block_fma || base.k_split != 1 || base.datapath_in != base.in)
    bad("the base row is not a one-instruction block-FMA row");
  const int w = p.block_width;
  if (w < 1 || w > 64 || (w & (w - 1)) != 0)
    bad("block width " + std::to_string(w) + " is not a power of two from 1 to 64 (the RTL's adder tree needs one)");
  if (p.kept_bits < 1) bad("kept bits must be at least 1, not " + std::to_string(p.kept_bits));
  if (p.carry_bits < min_carry_bits(w))
    bad(std::to_string(p.carry_bits) + " carry bits cannot hold the sum of " + std::to_string(w + 1) +
        " addends; W = " + std::to_string(w) + " needs " + std::to_string(min_carry_bits(w)));
  if (p.kept_bits + p.carry_bits > 62)
    bad("kept + carry = " + std::to_string(p.kept_bits + p.carry_bits) + " bits is beyond the 62-bit adder");
  if (p.sum_frac_bits < 1) bad("sum fraction bits must be at least 1");
  if (p.out_rounding != fp::Rounding::rz && p.out_rounding != fp::Rounding::rn)
    bad("the output rounding must be rz or rn (the RTL's two)");
  NumericsRow r = base;
  r.block_width = w, r.kept_bits = p.kept_bits, r.carry_bits = p.carry_bits;
  r.sum_frac_bits = p.sum_frac_bits, r.out_rounding = p.out_rounding;
  if (r.c_align == CAlign::with_block) r.c_rounding = p.out_rounding;
  r.source = "custom: numerics sweep";
  return r;
}

}  // namespace ptxfu::mma
