// fuzz_eval_diff's reference for comparison, selection, lop3, shf and prmt,
// from the PTX ISA's own definitions ("Comparison and Selection
// Instructions", "Logic and Shift Instructions", "Data Movement and
// Conversion Instructions: prmt"). Float operands become doubles through the
// MPFR oracle's decoder and are compared with C++'s IEEE operators.
#include <cmath>

#include "eval_diff_ref.h"
#include "oracle/mpfr_oracle.h"

namespace ptxfu::fuzz {
namespace {

using namespace ptxfu::isa;
namespace orc = ptxfu::oracle;

bool float_spec(Type t, orc::Spec& s) {
  switch (t) {
    case Type::f16:
    case Type::f16x2: s = orc::kF16; return true;
    case Type::bf16:
    case Type::bf16x2: s = orc::kBF16; return true;
    case Type::f32: s = orc::kF32; return true;
    case Type::f64: s = orc::kF64; return true;
    default: return false;
  }
}

// Operand lane `l` of a source of type t, as the ISA compares it.
struct Value {
  bool is_float;
  double f;
  s128 i;
};

Value lane_value(Type t, uint64_t bits, unsigned l) {
  const TypeInfo& ti = info(t);
  const unsigned w = ti.bits / ti.lanes;
  const uint64_t lane = static_cast<uint64_t>((u128{bits} >> (l * w)) & mask_of(w));
  orc::Spec s;
  if (float_spec(t, s)) return {true, orc::decode(s, lane), 0};
  return {false, 0, value_of(lane, w, ti.cls == TypeClass::signed_int)};
}

bool compare(Cmp c, const Value& a, const Value& b) {
  if (!a.is_float) {
    // lo ls hi hs are the unsigned names; value_of already read the type's signedness.
    switch (c) {
      case Cmp::eq: return a.i == b.i;
      case Cmp::ne: return a.i != b.i;
      case Cmp::lt:
      case Cmp::lo: return a.i < b.i;
      case Cmp::le:
      case Cmp::ls: return a.i <= b.i;
      case Cmp::gt:
      case Cmp::hi: return a.i > b.i;
      case Cmp::ge:
      case Cmp::hs: return a.i >= b.i;
      default: std::abort();
    }
  }
  const double x = a.f, y = b.f;
  const bool unordered = std::isnan(x) || std::isnan(y);
  switch (c) {
    case Cmp::eq: return x == y;
    case Cmp::ne: return !unordered && x != y;
    case Cmp::lt: return x < y;
    case Cmp::le: return x <= y;
    case Cmp::gt: return x > y;
    case Cmp::ge: return x >= y;
    case Cmp::equ: return unordered || x == y;
    case Cmp::neu: return x != y;  // true when unordered
    case Cmp::ltu: return unordered || x < y;
    case Cmp::leu: return unordered || x <= y;
    case Cmp::gtu: return unordered || x > y;
    case Cmp::geu: return unordered || x >= y;
    case Cmp::num: return !unordered;
    case Cmp::nan: return unordered;
    default: std::abort();
  }
}

bool combine(const Instr& in, bool t, bool c) {
  if (in.has(Mod::and_)) return t && c;
  if (in.has(Mod::or_)) return t || c;
  if (in.has(Mod::xor_)) return t != c;
  return t;
}

// set's true value in a destination lane of type t and width w.
uint64_t true_value(Type t, unsigned w) {
  switch (t) {
    case Type::f16:
    case Type::f16x2: return 0x3c00;
    case Type::bf16:
    case Type::bf16x2: return 0x3f80;
    case Type::f32: return 0x3f800000;
    default: return static_cast<uint64_t>(mask_of(w));
  }
}

std::string setp(const Instr& in, const uint64_t* s) {
  const bool c = in.num_src > 2 && (s[2] & 1);
  if (info(in.type).lanes == 2) {  // p from lane 0, q from lane 1
    const bool p = combine(in, compare(in.cmp, lane_value(in.type, s[0], 0), lane_value(in.type, s[1], 0)), c);
    const bool q = combine(in, compare(in.cmp, lane_value(in.type, s[0], 1), lane_value(in.type, s[1], 1)), c);
    return hex(p, 1) + " " + hex(q, 1);
  }
  const bool t = compare(in.cmp, lane_value(in.type, s[0], 0), lane_value(in.type, s[1], 0));
  // Scalar f16/bf16 write p alone (ptxas refuses p|q there; README).
  const bool half = in.type == Type::f16 || in.type == Type::bf16;
  if (in.num_src < 3 || half) return hex(combine(in, t, c), 1);
  return hex(combine(in, t, c), 1) + " " + hex(combine(in, !t, c), 1);
}

std::string set(const Instr& in, const uint64_t* s) {
  const bool c = in.num_src > 2 && (s[2] & 1);
  const unsigned lanes = info(in.type2).lanes;
  const unsigned w = info(in.type).bits / lanes;
  uint64_t d = 0;
  for (unsigned l = 0; l < lanes; ++l)
    if (combine(in, compare(in.cmp, lane_value(in.type2, s[0], l), lane_value(in.type2, s[1], l)), c))
      d |= true_value(in.type, w) << (l * w);
  return hex(d, info(in.type).bits);
}

std::string slct(const Instr& in, const uint64_t* s) {
  const Value c = lane_value(in.type2, s[2], 0);
  const bool take_a = c.is_float ? c.f >= 0.0 : c.i >= 0;  // -0 >= 0; NaN is not
  return hex(take_a ? s[0] : s[1], info(in.type).bits);
}

// Each result bit is the LUT's entry at index (a<<2 | b<<1 | c) of that
// bit's operands: with a = 0xF0, b = 0xCC, c = 0xAA the LUT is F itself.
uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t d = 0;
  for (unsigned i = 0; i < 32; ++i) {
    const unsigned index = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
    d |= ((lut >> index) & 1) << i;
  }
  return d;
}

// shf: the 64-bit {b, a} shifted; .l keeps the upper word, .r the lower.
uint32_t shf(bool left, bool clamp_amount, uint32_t a, uint32_t b, uint32_t c) {
  const unsigned n = clamp_amount ? (c > 32 ? 32 : c) : c & 31;
  const uint64_t pair = uint64_t{b} << 32 | a;
  return left ? static_cast<uint32_t>((u128{pair} << n) >> 32) : static_cast<uint32_t>(pair >> n);
}

// prmt: bytes 0..3 of a and 4..7 of b. The modes, as the ISA's table
// describes them, by the rule each one follows (s = c[1:0], i the
// destination byte): f4e byte s+i, b4e byte s-i (mod 8), rc8 byte s,
// ecl byte max(s, i), ecr byte min(s, i), rc16 half s[0] replicated.
uint32_t prmt(const Instr& in, uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t bytes = uint64_t{b} << 32 | a;
  const unsigned s = c & 3;
  uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned pick;
    bool sign = false;
    if (in.has(Mod::f4e))
      pick = (s + i) & 7;
    else if (in.has(Mod::b4e))
      pick = (s + 8 - i) & 7;
    else if (in.has(Mod::rc8))
      pick = s;
    else if (in.has(Mod::ecl))
      pick = s > i ? s : i;
    else if (in.has(Mod::ecr))
      pick = s < i ? s : i;
    else if (in.has(Mod::rc16))
      pick = 2 * (s & 1) + (i & 1);
    else {
      const unsigned nibble = (c >> (4 * i)) & 0xf;
      pick = nibble & 7;
      sign = nibble & 8;
    }
    uint32_t v = static_cast<uint32_t>(bytes >> (8 * pick)) & 0xff;
    if (sign) v = (v & 0x80) ? 0xff : 0;
    d |= v << (8 * i);
  }
  return d;
}

uint32_t u32(uint64_t v) { return static_cast<uint32_t>(v); }

}  // namespace

bool alu_covered(const Instr& in) {
  switch (in.op) {
    case Op::setp:
    case Op::set:
    case Op::slct: return !in.has(Mod::ftz);
    case Op::lop3:
    case Op::shf:
    case Op::prmt: return true;
    default: return false;
  }
}

std::string alu_reference(const Instr& in, const uint64_t* s) {
  switch (in.op) {
    case Op::setp: return setp(in, s);
    case Op::set: return set(in, s);
    case Op::slct: return slct(in, s);
    case Op::lop3: {
      const uint32_t d = lop3(u32(s[0]), u32(s[1]), u32(s[2]), u32(s[3]));
      if (in.num_src < 5) return hex(d, 32);
      const bool q = s[4] & 1;
      const bool p = in.has(Mod::and_) ? (d != 0 && q) : (d != 0 || q);
      return hex(d, 32) + " " + hex(p, 1);
    }
    case Op::shf: return hex(shf(in.has(Mod::l), in.has(Mod::clamp), u32(s[0]), u32(s[1]), u32(s[2])), 32);
    case Op::prmt: return hex(prmt(in, u32(s[0]), u32(s[1]), u32(s[2])), 32);
    default: std::abort();
  }
}

}  // namespace ptxfu::fuzz
