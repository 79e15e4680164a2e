// setp, set, selp and slct: comparisons and selection (PTX ISA 9.7.7
// "Comparison and Selection Instructions"). Operands are bit patterns; the
// float formats are read from their rows (fp::Format), so f16, bf16, f32
// and f64 share one comparison.
//
//   floats   IEEE 754: -0 == +0; a NaN operand makes every ordered
//            comparison (eq ne lt le gt ge) false and every unordered one
//            (equ neu ltu leu gtu geu) true; num: neither is NaN, nan:
//            either is. `.ftz` compares subnormal inputs as zero.
//   setp     t = a CmpOp b; p = BoolOp(t, c), q = BoolOp(!t, c); without a
//            BoolOp p = t, q = !t. On f16x2/bf16x2 p is lane 0 (bits 15:0)
//            and q lane 1, each combined with c.
//   set      BoolOp(t, c) as all ones (integer lanes) or 1.0 (float lanes);
//            the x2 sources give one result per 16-bit lane.
//   slct     c >= 0 selects a: -0 selects a, a NaN c selects b.
#include "exec/execute.h"
#include "fp/format.h"
#include "int/shape.h"
#include "isa/table.h"

namespace ptxfu::exec {
namespace {

using isa::Cmp;
using isa::Mod;
using isa::Op;

// Where a value stands among the values of its format: the sign-magnitude
// encoding read as a signed integer orders every non-NaN value, with the
// two zeros equal.
struct Ordered {
  bool nan;
  int64_t key;
};

Ordered order(const fp::Format& f, uint64_t bits, bool ftz) {
  const unsigned fb = static_cast<unsigned>(f.frac_bits), eb = static_cast<unsigned>(f.exp_bits);
  uint64_t mag = bits & integer::low_mask(eb + fb);
  const bool negative = (bits >> (eb + fb)) & 1;
  const uint64_t exp = mag >> fb;
  if (exp == integer::low_mask(eb) && (mag & integer::low_mask(fb))) return {true, 0};
  if (ftz && exp == 0) mag = 0;
  const int64_t m = static_cast<int64_t>(mag);
  return {false, negative ? -m : m};
}

// The comparison from the three facts every CmpOp is made of.
bool decide(Cmp c, bool unordered, bool less, bool equal) {
  const bool greater = !unordered && !less && !equal;
  switch (c) {
    case Cmp::eq: return !unordered && equal;
    case Cmp::ne: return !unordered && !equal;
    case Cmp::lt:
    case Cmp::lo: return !unordered && less;
    case Cmp::le:
    case Cmp::ls: return !unordered && (less || equal);
    case Cmp::gt:
    case Cmp::hi: return greater;
    case Cmp::ge:
    case Cmp::hs: return greater || (!unordered && equal);
    case Cmp::equ: return unordered || equal;
    case Cmp::neu: return unordered || !equal;
    case Cmp::ltu: return unordered || less;
    case Cmp::leu: return unordered || less || equal;
    case Cmp::gtu: return unordered || greater;
    case Cmp::geu: return unordered || greater || equal;
    case Cmp::num: return !unordered;
    case Cmp::nan: return unordered;
    default: return false;
  }
}

// a CmpOp b for one lane of type t (lane bits, zero-extended).
bool compare_lane(isa::Type t, Cmp c, uint64_t a, uint64_t b, bool ftz) {
  if (const fp::Format* f = isa::info(t).format) {
    const Ordered x = order(*f, a, ftz), y = order(*f, b, ftz);
    const bool unordered = x.nan || y.nan;
    return decide(c, unordered, !unordered && x.key < y.key, !unordered && x.key == y.key);
  }
  const integer::Shape s = integer::shape(t);  // .b types: only eq/ne, on the bits
  const integer::s128 x = s.value(a), y = s.value(b);
  return decide(c, false, x < y, x == y);
}

bool combine(const isa::Instr& in, bool t, bool c) {
  if (in.has(Mod::and_)) return t && c;
  if (in.has(Mod::or_)) return t || c;
  if (in.has(Mod::xor_)) return t != c;
  return t;
}

// Lane i's comparison of a two-lane or scalar operand pair.
bool lane_result(const isa::Instr& in, isa::Type t, const uint64_t* src, unsigned lane) {
  const unsigned w = isa::lane_bits(t);
  const uint64_t m = integer::low_mask(w);
  return compare_lane(t, in.cmp, (src[0] >> (lane * w)) & m, (src[1] >> (lane * w)) & m, in.has(Mod::ftz));
}

void setp(const isa::Instr& in, const uint64_t* src, Result& out) {
  const bool c = in.num_src == 3 && (src[2] & 1);
  const bool t0 = lane_result(in, in.type, src, 0);
  const bool t1 = isa::info(in.type).lanes == 2 ? lane_result(in, in.type, src, 1) : !t0;
  out.value = combine(in, t0, c);
  out.second = combine(in, t1, c);
}

// What set writes for "true" in a destination lane of `bits` bits.
uint64_t true_value(isa::Type d, unsigned bits) {
  if (const fp::Format* f = isa::info(d).format)  // 1.0: the bias in the exponent field
    return integer::low_mask(static_cast<unsigned>(f->exp_bits - 1)) << f->frac_bits;
  return integer::low_mask(bits);
}

void set(const isa::Instr& in, const uint64_t* src, Result& out) {
  const bool c = in.num_src == 3 && (src[2] & 1);
  const unsigned lanes = isa::info(in.type2).lanes;
  const unsigned w = isa::info(in.type).bits / lanes;
  for (unsigned i = 0; i < lanes; ++i)
    if (combine(in, lane_result(in, in.type2, src, i), c)) out.value |= true_value(in.type, w) << (i * w);
}

// slct: c >= 0, c of the second type (.s32, or .f32 with .ftz).
bool selects_a(const isa::Instr& in, uint64_t c) {
  if (in.type2 == isa::Type::f32) {
    const Ordered o = order(fp::kF32, c, in.has(Mod::ftz));
    return !o.nan && o.key >= 0;
  }
  return static_cast<int32_t>(static_cast<uint32_t>(c)) >= 0;
}

}  // namespace

bool execute_compare_lanes(const isa::Instr& in, LaneSources src, unsigned lanes, uint32_t active, uint64_t* results) {
  if (!in.row || in.row->executor != isa::Executor::compare) return false;
  auto each = [&](auto lane_value) {
    for (unsigned lane = 0; lane < lanes; ++lane)
      if (active >> lane & 1) results[lane] = lane_value(lane);
  };
  switch (in.op) {
    case Op::selp: each([&](unsigned l) { return (src[2][l] & 1) ? src[0][l] : src[1][l]; }); return true;
    case Op::setp: {  // p only: the value of setp() for one-lane types, the type's decoding hoisted
      if (isa::info(in.type).lanes != 1) return false;
      const uint64_t m = integer::low_mask(isa::lane_bits(in.type));
      const bool ftz = in.has(Mod::ftz), has_c = in.num_src == 3;
      each([&](unsigned l) {
        const bool t = compare_lane(in.type, in.cmp, src[0][l] & m, src[1][l] & m, ftz);
        return uint64_t{combine(in, t, has_c && (src[2][l] & 1))};
      });
      return true;
    }
    default: return false;
  }
}

bool execute_compare(const isa::Instr& in, const uint64_t* src, Result& out) {
  if (!in.row || in.row->executor != isa::Executor::compare) return false;
  Result r;
  switch (in.op) {
    case Op::setp: setp(in, src, r); break;
    case Op::set: set(in, src, r); break;
    case Op::selp: r.value = (src[2] & 1) ? src[0] : src[1]; break;
    case Op::slct: r.value = selects_a(in, src[2]) ? src[0] : src[1]; break;
    default: return false;
  }
  out = r;
  return true;
}

}  // namespace ptxfu::exec
