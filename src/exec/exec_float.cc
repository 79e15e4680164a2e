// The floating-point executor: maps a decoded instruction (op, types,
// modifiers) onto the fp core. One Policy per instruction, built here from
// the modifiers; the core applies it.
#include "exec/execute.h"
#include "fp/ops.h"

namespace ptxfu::exec {
namespace {

using isa::Mod;
using isa::Op;
using isa::Type;

// The format of one lane of a floating-point type; nullptr for others.
const fp::Format* lane_format(Type t) {
  switch (t) {
    case Type::f16:
    case Type::f16x2: return &fp::kF16;
    case Type::bf16:
    case Type::bf16x2: return &fp::kBF16;
    case Type::f32:
    case Type::f32x2: return &fp::kF32;
    case Type::f64: return &fp::kF64;
    default: return nullptr;
  }
}

fp::Rounding rounding(const isa::Instr& in) {
  if (in.has(Mod::rz)) return fp::Rounding::rz;
  if (in.has(Mod::rm)) return fp::Rounding::rm;
  if (in.has(Mod::rp)) return fp::Rounding::rp;
  return fp::Rounding::rn;  // .rn or no rounding modifier
}

fp::Policy policy(const isa::Instr& in) {
  fp::Policy p;
  p.rnd = rounding(in);
  p.ftz = in.has(Mod::ftz);
  p.sat = in.has(Mod::sat);
  p.relu = in.has(Mod::relu);
  p.oob = in.has(Mod::oob);
  return p;
}

// One lane of the operation on lane operands `s`.
uint64_t lane(const isa::Instr& in, const fp::Format& f, const fp::Policy& p,
              const uint64_t* s) {
  const fp::MinMaxMode mm{in.has(Mod::nan), in.has(Mod::xorsign), in.has(Mod::abs)};
  switch (in.op) {
    case Op::add: return fp::add(f, s[0], s[1], p);
    case Op::sub: return fp::sub(f, s[0], s[1], p);
    case Op::mul: return fp::mul(f, s[0], s[1], p);
    case Op::fma:
    case Op::mad: return fp::fma(f, s[0], s[1], s[2], p);
    case Op::div: return fp::div(f, s[0], s[1], p);
    case Op::rcp: return fp::rcp(f, s[0], p);
    case Op::sqrt: return fp::sqrt(f, s[0], p);
    case Op::abs: return fp::abs(f, s[0], p);
    case Op::neg: return fp::neg(f, s[0], p);
    case Op::min:
      return in.num_src == 3 ? fp::min3(f, s[0], s[1], s[2], p, mm) : fp::min(f, s[0], s[1], p, mm);
    case Op::max:
      return in.num_src == 3 ? fp::max3(f, s[0], s[1], s[2], p, mm) : fp::max(f, s[0], s[1], p, mm);
    default: return 0;
  }
}

bool is_float_op(Op op) {
  switch (op) {
    case Op::add: case Op::sub: case Op::mul: case Op::fma: case Op::mad: case Op::div:
    case Op::rcp: case Op::sqrt: case Op::abs: case Op::neg: case Op::min: case Op::max:
      return true;
    default: return false;
  }
}

}  // namespace

bool execute_float(const isa::Instr& in, const uint64_t* src, Result& out) {
  const fp::Format* f = lane_format(in.type);
  if (f == nullptr || !is_float_op(in.op)) return false;
  if (in.has(Mod::approx) || in.has(Mod::full)) return false;  // exec_approx.cc
  const fp::Policy p = policy(in);

  // Mixed precision: add/sub/fma .f32.{f16,bf16}.
  const fp::Format* src_f = lane_format(in.type2);
  if (in.type2 != in.type && src_f != nullptr) {
    switch (in.op) {
      case Op::add: out.value = fp::add_mixed(*src_f, *f, src[0], src[1], p); return true;
      case Op::sub: out.value = fp::sub_mixed(*src_f, *f, src[0], src[1], p); return true;
      case Op::fma: out.value = fp::fma_mixed(*src_f, *f, src[0], src[1], src[2], p); return true;
      default: return false;
    }
  }

  const unsigned lanes = isa::info(in.type).lanes;
  const unsigned w = isa::lane_bits(in.type);
  const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  uint64_t value = 0;
  for (unsigned l = 0; l < lanes; ++l) {
    uint64_t s[3] = {0, 0, 0};
    for (unsigned i = 0; i < in.num_src && i < 3; ++i) s[i] = (src[i] >> (l * w)) & mask;
    value |= (lane(in, *f, p, s) & mask) << (l * w);
  }
  out.value = value;
  return true;
}

}  // namespace ptxfu::exec
