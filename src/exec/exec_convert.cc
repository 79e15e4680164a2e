// cvt: conversions between integer and float formats, and the packing forms
// (the first source goes to the upper half, PTX ISA "cvt").
#include "exec/execute.h"
#include "fp/cvt.h"
#include "int/convert.h"
#include "isa/table.h"

namespace ptxfu::exec {
namespace {

using isa::Mod;
using isa::Type;

fp::IntRounding int_rounding(const isa::Instr& in) {
  if (in.has(Mod::rzi)) return fp::IntRounding::rzi;
  if (in.has(Mod::rmi)) return fp::IntRounding::rmi;
  if (in.has(Mod::rpi)) return fp::IntRounding::rpi;
  return fp::IntRounding::rni;
}

bool has_int_rounding(const isa::Instr& in) { return (in.mods & isa::kIntRoundingMods) != 0; }

// .ftz applies to .f32 inputs and results only (PTX ISA, cvt).
fp::CvtPolicy policy(const isa::Instr& in) {
  fp::CvtPolicy p;
  p.rnd = rounding_of(in);
  p.ftz_in = in.has(Mod::ftz) && in.type2 == Type::f32;
  p.ftz_out = in.has(Mod::ftz) && in.type == Type::f32;
  p.sat = in.has(Mod::sat);
  p.relu = in.has(Mod::relu);
  p.satfinite = in.has(Mod::satfinite);
  return p;
}

bool is_signed(Type t) { return isa::info(t).cls == isa::TypeClass::signed_int; }

// An integer result in its register: .s8 sign-extends into the 16-bit register, .u8 zero-extends.
uint64_t widen_int(Type t, uint64_t v) {
  if (t == Type::s8 && (v & 0x80)) return v | 0xff00;
  return v;
}

uint64_t scalar(const isa::Instr& in, uint64_t a) {
  const isa::TypeInfo& to = isa::info(in.type);
  const isa::TypeInfo& from = isa::info(in.type2);
  const fp::CvtPolicy p = policy(in);
  if (!to.format && !from.format)
    return widen_int(in.type, integer::cvt_int(a, from.bits, is_signed(in.type2), to.bits, is_signed(in.type), p.sat));
  if (!to.format)
    return widen_int(in.type,
                     fp::cvt_float_to_int(*from.format, a, int_rounding(in), p.ftz_in, to.bits, is_signed(in.type)));
  if (!from.format) return fp::cvt_int_to_float(*to.format, a, from.bits, is_signed(in.type2), p);
  if (in.type == Type::tf32) return fp::cvt_tf32(a, in.has(Mod::rna), p);
  if (has_int_rounding(in)) return fp::cvt_integral(*to.format, a, int_rounding(in), p);
  return fp::cvt_float(*from.format, *to.format, a, p);
}

// The random bits of source value `k` (a, b, e, f: PTX order) of a .rs
// form, taken from rbits as the PTX ISA's cvt lays them out:
//  .f16x2: "13 LSBs from upper 16-bits are used as random bits for operand
//   a ... and 13 LSBs from lower 16-bits ... for operand b" (bits 15:13 of
//   each half are not read);
//  .bf16x2: "upper 16-bits are used as random bits for operand a and lower
//   16-bits ... for operand b";
//  .e4m3x4 .e5m2x4 .e2m3x4 .e3m2x4: "lower 16-bits are used for operands e, f
//   and upper 16 bits are used for operands a, b": a byte each, a in
//   [31:24], b [23:16], e [15:8], f [7:0], as their results lie in d;
//  .e2m1x4: "lower 8-bits from both 16-bits half of rbits are used for
//   operands e, f and upper 8-bits from both 16-bits half of rbits are used
//   for operands a, b": a [31:24], b [15:8], e [23:16], f [7:0].
fp::RandomBits random_bits(Type to, unsigned k, uint32_t rbits) {
  switch (to) {
    case Type::f16x2: return {(rbits >> (k == 0 ? 16 : 0)) & 0x1fff, 13};
    case Type::bf16x2: return {(rbits >> (k == 0 ? 16 : 0)) & 0xffff, 16};
    case Type::e2m1x4: {
      constexpr unsigned kShift[] = {24, 8, 16, 0};
      return {(rbits >> kShift[k]) & 0xff, 8};
    }
    default: return {(rbits >> (24 - 8 * k)) & 0xff, 8};
  }
}

}  // namespace

bool execute_convert(const isa::Instr& in, const uint64_t* src, Result& out) {
  if (in.op != isa::Op::cvt) return false;
  const isa::TypeInfo& to = isa::info(in.type);
  const isa::TypeInfo& from = isa::info(in.type2);
  if (in.row->shape == isa::Shape::pack_int) {  // cvt.pack.sat: a above b, c's low bits above both
    const uint32_t c = in.num_src == 3 ? static_cast<uint32_t>(src[2]) : 0;
    out.value =
        integer::cvt_pack(static_cast<uint32_t>(src[0]), static_cast<uint32_t>(src[1]), c, to.bits, is_signed(in.type));
    return true;
  }
  if (to.lanes == 1 && from.lanes == 1) {
    out.value = scalar(in, src[0]);
    return true;
  }
  // Packs: lane 1 (upper) from the first source or the upper half of a.
  fp::CvtPolicy p = policy(in);
  const unsigned out_lane = to.bits / to.lanes;
  if (in.has(Mod::rs)) {  // .rs: each value with its own random bits; the first source highest
    const unsigned n = to.lanes;
    const auto rbits = static_cast<uint32_t>(src[n]);
    uint64_t d = 0;
    for (unsigned k = 0; k < n; ++k) {
      p.random = random_bits(in.type, k, rbits);
      d |= fp::cvt_float(*from.format, *to.format, src[k], p) << ((n - 1 - k) * out_lane);
    }
    out.value = d;
    return true;
  }
  const unsigned in_lane = from.bits / from.lanes;
  const uint64_t in_mask = (uint64_t{1} << in_lane) - 1;
  uint64_t hi, lo;
  if (from.lanes == 1) {
    hi = src[0];
    lo = src[1];
  } else {
    hi = (src[0] >> in_lane) & in_mask;
    lo = src[0] & in_mask;
  }
  out.value =
      fp::cvt_float(*from.format, *to.format, hi, p) << out_lane | fp::cvt_float(*from.format, *to.format, lo, p);
  return true;
}

}  // namespace ptxfu::exec
