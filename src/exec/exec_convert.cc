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

}  // namespace

bool execute_convert(const isa::Instr& in, const uint64_t* src, Result& out) {
  if (in.op != isa::Op::cvt) return false;
  const isa::TypeInfo& to = isa::info(in.type);
  const isa::TypeInfo& from = isa::info(in.type2);
  if (to.lanes == 1 && from.lanes == 1) {
    out.value = scalar(in, src[0]);
    return true;
  }
  // Packs: lane 1 (upper) from the first source or the upper half of a.
  const fp::CvtPolicy p = policy(in);
  const unsigned out_lane = to.bits / to.lanes;
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
