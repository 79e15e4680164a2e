// Claims the integer instructions: reads the decoded form (op, types,
// modifiers) and hands the operands to the integer unit (src/int).
#include <utility>

#include "exec/execute.h"
#include "int/int_ops.h"
#include "isa/table.h"

namespace ptxfu::exec {
namespace {

using isa::Mod;
using isa::Op;

integer::Part part_of(const isa::Instr& in) {
  if (in.has(Mod::hi)) return integer::Part::hi;
  if (in.has(Mod::wide)) return integer::Part::wide;
  return integer::Part::lo;
}

integer::Bound bound_of(const isa::Instr& in) {
  return in.has(Mod::wrap) ? integer::Bound::wrap : integer::Bound::clamp;
}

uint32_t u32(uint64_t v) { return static_cast<uint32_t>(v); }

integer::Permute permute_of(const isa::Instr& in) {
  constexpr std::pair<Mod, integer::Permute> kModes[] = {
      {Mod::f4e, integer::Permute::f4e}, {Mod::b4e, integer::Permute::b4e}, {Mod::rc8, integer::Permute::rc8},
      {Mod::ecl, integer::Permute::ecl}, {Mod::ecr, integer::Permute::ecr}, {Mod::rc16, integer::Permute::rc16},
  };
  for (const auto& [m, p] : kModes)
    if (in.has(m)) return p;
  return integer::Permute::generic;
}

// lop3.and / lop3.or: p = (d != 0) BoolOp q.
bool lop3_predicate(const isa::Instr& in, uint32_t d, bool q) {
  return in.has(Mod::and_) ? (d != 0 && q) : (d != 0 || q);
}

bool dispatch(const isa::Instr& in, const uint64_t* src, bool carry_in, Result& out) {
  const isa::Type t = in.type;
  const bool cc = in.has(Mod::cc);
  const bool sat = in.has(Mod::sat);
  const bool relu = in.has(Mod::relu);
  auto chain = [&](integer::CarryOut r) {
    out.value = r.value;
    out.carry_out = cc && r.carry;
    return true;
  };
  auto value = [&](uint64_t v) {
    out.value = v;
    return true;
  };

  switch (in.op) {
    case Op::add:
      if (cc) return chain(integer::add_carry(t, src[0], src[1], false));
      return value(integer::add(t, src[0], src[1], sat));
    case Op::addc:
      if (sat) return value(integer::add_carry_sat(t, src[0], src[1], carry_in));
      return chain(integer::add_carry(t, src[0], src[1], carry_in));
    case Op::sub:
      if (cc) return chain(integer::sub_carry(t, src[0], src[1], true));
      return value(integer::sub(t, src[0], src[1], sat));
    case Op::subc:
      if (sat) return value(integer::sub_carry_sat(t, src[0], src[1], carry_in));
      return chain(integer::sub_carry(t, src[0], src[1], carry_in));
    case Op::mul: return value(integer::mul(t, part_of(in), src[0], src[1]));
    case Op::mad:
      if (cc) return chain(integer::mad_carry(t, part_of(in), src[0], src[1], src[2], false));
      return value(integer::mad(t, part_of(in), src[0], src[1], src[2], sat));
    case Op::madc:
      if (sat) return value(integer::mad_carry_sat(t, part_of(in), src[0], src[1], src[2], carry_in));
      return chain(integer::mad_carry(t, part_of(in), src[0], src[1], src[2], carry_in));
    case Op::mul24: return value(integer::mul24(t, part_of(in), src[0], src[1]));
    case Op::mad24: return value(integer::mad24(t, part_of(in), src[0], src[1], src[2], sat));
    case Op::sad: return value(integer::sad(t, src[0], src[1], src[2]));
    case Op::div: return value(integer::div(t, src[0], src[1]));
    case Op::rem: return value(integer::rem(t, src[0], src[1]));
    case Op::abs: return value(integer::abs(t, src[0]));
    case Op::neg: return value(integer::neg(t, src[0]));
    case Op::min: return value(integer::min(t, src[0], src[1], relu));
    case Op::max: return value(integer::max(t, src[0], src[1], relu));
    case Op::popc: return value(integer::popc(t, src[0]));
    case Op::clz: return value(integer::clz(t, src[0]));
    case Op::bfind: return value(integer::bfind(t, src[0], in.has(Mod::shiftamt)));
    case Op::brev: return value(integer::brev(t, src[0]));
    case Op::bfe: return value(integer::bfe(t, src[0], u32(src[1]), u32(src[2])));
    case Op::bfi: return value(integer::bfi(t, src[0], src[1], u32(src[2]), u32(src[3])));
    case Op::fns: return value(integer::fns(u32(src[0]), u32(src[1]), static_cast<int32_t>(u32(src[2]))));
    case Op::bmsk: return value(integer::bmsk(u32(src[0]), u32(src[1]), bound_of(in)));
    case Op::szext: return value(integer::szext(t, u32(src[0]), u32(src[1]), bound_of(in)));
    case Op::dp4a: return value(integer::dp4a(t, in.type2, u32(src[0]), u32(src[1]), u32(src[2])));
    case Op::dp2a: return value(integer::dp2a(t, in.type2, in.has(Mod::hi), u32(src[0]), u32(src[1]), u32(src[2])));
    case Op::and_: return value(integer::logic(t, integer::Logic::and_, src[0], src[1]));
    case Op::or_: return value(integer::logic(t, integer::Logic::or_, src[0], src[1]));
    case Op::xor_: return value(integer::logic(t, integer::Logic::xor_, src[0], src[1]));
    case Op::not_: return value(integer::not_(t, src[0]));
    case Op::cnot: return value(integer::cnot(t, src[0]));
    case Op::lop3: {
      const uint32_t d = integer::lop3(u32(src[0]), u32(src[1]), u32(src[2]), u32(src[3]));
      if (in.num_src == 5) out.second = lop3_predicate(in, d, src[4] & 1);
      return value(d);
    }
    case Op::shl: return value(integer::shl(t, src[0], u32(src[1])));
    case Op::shr: return value(integer::shr(t, src[0], u32(src[1])));
    case Op::shf:
      return value(integer::shf(in.has(Mod::l) ? integer::Direction::left : integer::Direction::right, bound_of(in),
                                u32(src[0]), u32(src[1]), u32(src[2])));
    case Op::prmt: return value(integer::prmt(permute_of(in), u32(src[0]), u32(src[1]), u32(src[2])));
    default: return false;
  }
}

}  // namespace

bool execute_int_lanes(const isa::Instr& in, LaneSources src, unsigned lanes, uint32_t active, uint64_t* results) {
  // The common forms, without carries, saturation or .relu: the form is
  // dispatched once for the warp, each lane then calls the integer unit as
  // dispatch() would.
  if (!in.row || in.row->executor != isa::Executor::integer || in.has(Mod::cc) || in.has(Mod::sat) || in.has(Mod::relu))
    return false;
  const isa::Type t = in.type;
  const auto each = [&](auto f) {
    for (unsigned lane = 0; lane < lanes; ++lane)
      if (active >> lane & 1) results[lane] = f(lane);
    return true;
  };
  const uint64_t* a = src[0];
  const uint64_t* b = src[1];
  const uint64_t* c = src[2];
  switch (in.op) {
    case Op::add: return each([&](unsigned l) { return integer::add(t, a[l], b[l], false); });
    case Op::sub: return each([&](unsigned l) { return integer::sub(t, a[l], b[l], false); });
    case Op::mul: {
      const integer::Part p = part_of(in);
      return each([&](unsigned l) { return integer::mul(t, p, a[l], b[l]); });
    }
    case Op::mad: {
      const integer::Part p = part_of(in);
      return each([&](unsigned l) { return integer::mad(t, p, a[l], b[l], c[l], false); });
    }
    case Op::min: return each([&](unsigned l) { return integer::min(t, a[l], b[l], false); });
    case Op::max: return each([&](unsigned l) { return integer::max(t, a[l], b[l], false); });
    case Op::and_: return each([&](unsigned l) { return integer::logic(t, integer::Logic::and_, a[l], b[l]); });
    case Op::or_: return each([&](unsigned l) { return integer::logic(t, integer::Logic::or_, a[l], b[l]); });
    case Op::xor_: return each([&](unsigned l) { return integer::logic(t, integer::Logic::xor_, a[l], b[l]); });
    case Op::shl: return each([&](unsigned l) { return integer::shl(t, a[l], u32(b[l])); });
    case Op::shr: return each([&](unsigned l) { return integer::shr(t, a[l], u32(b[l])); });
    default: return false;
  }
}

bool execute_int(const isa::Instr& in, const uint64_t* src, bool carry_in, Result& out) {
  if (!in.row || in.row->executor != isa::Executor::integer) return false;
  Result r;
  if (!dispatch(in, src, carry_in, r)) return false;  // `out` untouched when not claimed
  out = r;
  return true;
}

}  // namespace ptxfu::exec
