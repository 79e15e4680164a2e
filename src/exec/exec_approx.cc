// The special function unit's instructions: sin cos lg2 ex2 tanh rsqrt, and
// rcp/sqrt/div in their .approx/.full forms.
#include <cstdint>

#include "approx/half_table.h"
#include "approx/mufu.h"
#include "exec/execute.h"

namespace ptxfu::exec {
namespace {

using approx::HalfFn;
using isa::Mod;
using isa::Op;
using isa::Type;

// Applies a half function to one 16-bit value or to both lanes of an x2
// pack (lane 0 = bits 15:0).
uint64_t half_lanes(HalfFn fn, Type t, uint64_t a) {
  const auto lane = [fn](uint64_t v) { return static_cast<uint64_t>(approx::eval_half(fn, static_cast<uint16_t>(v))); };
  if (isa::info(t).lanes == 2) return lane(a) | (lane(a >> 16) << 16);
  return lane(a);
}

bool is_f16(Type t) { return isa::info(t).format == &fp::kF16; }
bool is_bf16(Type t) { return isa::info(t).format == &fp::kBF16; }

}  // namespace

bool execute_approx(const isa::Instr& in, const uint64_t* src, Result& out) {
  const bool ftz = in.has(Mod::ftz);
  const bool approx_form = in.has(Mod::approx);
  const fp::Format& f32 = fp::kF32;
  const uint64_t a = src[0];
  switch (in.op) {
    case Op::sin:
      if (in.type != Type::f32) return false;
      out.value = approx::sin_approx(f32, a, ftz);
      return true;
    case Op::cos:
      if (in.type != Type::f32) return false;
      out.value = approx::cos_approx(f32, a, ftz);
      return true;
    case Op::lg2:
      if (in.type != Type::f32) return false;
      out.value = approx::lg2_approx(f32, a, ftz);
      return true;
    case Op::ex2:
      if (in.type == Type::f32) {
        out.value = approx::ex2_approx(f32, a, ftz);
      } else if (is_f16(in.type)) {
        out.value = half_lanes(HalfFn::ex2_f16, in.type, a);
      } else if (is_bf16(in.type)) {
        out.value = half_lanes(HalfFn::ex2_ftz_bf16, in.type, a);
      } else {
        return false;
      }
      return true;
    case Op::tanh:
      if (in.type == Type::f32) {
        out.value = approx::tanh_approx(f32, a);
      } else if (is_f16(in.type)) {
        out.value = half_lanes(HalfFn::tanh_f16, in.type, a);
      } else if (is_bf16(in.type)) {
        out.value = half_lanes(HalfFn::tanh_bf16, in.type, a);
      } else {
        return false;
      }
      return true;
    case Op::rsqrt:
      if (in.type == Type::f32) {
        out.value = approx::rsqrt_approx(f32, a, ftz);
      } else if (in.type == Type::f64) {
        out.value = ftz ? approx::rsqrt_approx_ftz_f64(a) : approx::rsqrt_approx_f64(a);
      } else {
        return false;
      }
      return true;
    case Op::rcp:
      if (!approx_form) return false;
      if (in.type == Type::f32) {
        out.value = approx::rcp_approx(f32, a, ftz);
      } else if (in.type == Type::f64) {
        out.value = approx::rcp_approx_ftz_f64(a);  // only the .ftz form exists
      } else {
        return false;
      }
      return true;
    case Op::sqrt:
      if (!approx_form || in.type != Type::f32) return false;
      out.value = approx::sqrt_approx(f32, a, ftz);
      return true;
    case Op::div:
      if (in.type != Type::f32) return false;
      if (approx_form) {
        out.value = approx::div_approx_f32(static_cast<uint32_t>(a), static_cast<uint32_t>(src[1]), ftz);
      } else if (in.has(Mod::full)) {
        out.value = approx::div_full_f32(static_cast<uint32_t>(a), static_cast<uint32_t>(src[1]), ftz);
      } else {
        return false;
      }
      return true;
    default: return false;
  }
}

}  // namespace ptxfu::exec
