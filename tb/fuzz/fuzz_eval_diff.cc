// Fuzz target: one VALID `ptxfu eval` line, end to end, against an
// independent reference. The fuzz bytes pick a legal form of the instruction
// table (isa::for_each_legal_form), its operands and the carry-in; the line is
// spelled as a user would write it and run through cli::run_eval (parse,
// legality, execute, print). The printed result must equal the reference's.
//
// The reference shares no arithmetic with src/: floating point comes from the
// MPFR oracle (tb/oracle), integers from plain 128-bit host arithmetic below.
// Forms the reference covers (every type, rounding mode and pack the table
// has for them):
//   float   add sub mul fma mad div sqrt rcp on f16 f16x2 bf16 bf16x2 f32
//           f32x2 f64 and mixed add/sub/fma .f32.f16/.f32.bf16, with or
//           without .rn/.rz/.rm/.rp; no .ftz .sat .relu .oob .approx .full.
//           NaN results are the canonical NaN.
//   integer add sub (.sat .cc) addc subc (.sat .cc) mul mad madc (.lo .hi
//           .wide .sat .cc) div rem abs neg min max (.relu) on every integer
//           type and pack of the table; popc clz brev; and or xor not cnot
//           (.pred included) shl shr selp; cvt.pack.sat (every type); mov's
//           pack and unpack forms (every width and element count).
//   stochastic rounding: cvt.rs to .f16x2, .bf16x2 and .e5m2x4 (.relu,
//           .satfinite) in exact integer arithmetic: the top K dropped bits
//           plus the K random bits, carried or not.
//   alu     setp set slct (no .ftz), lop3 (and its BoolOp forms), shf, prmt
//           (eval_diff_alu.cc).
//   cvt     integer, float-to-integer, integer-to-float, float-to-float and
//           integral rounding on the IEEE formats, the .rn f16x2/bf16x2
//           packs of two f32 (eval_diff_cvt.cc).
// Other forms (approximations, bit fields, dot products, min/max on floats,
// .ftz/.sat/.relu on floats) are still run, and their output must be one
// well-formed value of the destination's width.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "eval_diff_ref.h"
#include "eval_harness.h"
#include "isa/forms.h"
#include "isa/table.h"
#include "oracle/mpfr_oracle.h"

namespace {

using namespace ptxfu::isa;
namespace orc = ptxfu::oracle;
using namespace ptxfu::fuzz;

[[noreturn]] void fail(const std::string& line, const std::string& got, const std::string& want) {
  std::fprintf(stderr, "fuzz_eval_diff: '%s' printed '%s', the reference says '%s'\n", line.c_str(), got.c_str(),
               want.c_str());
  std::abort();
}

// ---- floating point through the MPFR oracle

bool float_spec(Type t, orc::Spec& s) {
  switch (t) {
    case Type::f16:
    case Type::f16x2: s = orc::kF16; return true;
    case Type::bf16:
    case Type::bf16x2: s = orc::kBF16; return true;
    case Type::f32:
    case Type::f32x2: s = orc::kF32; return true;
    case Type::f64: s = orc::kF64; return true;
    default: return false;
  }
}

bool float_covered(const Instr& in) {
  constexpr ModSet kRounding = bit(Mod::rn) | bit(Mod::rz) | bit(Mod::rm) | bit(Mod::rp);
  if (in.mods & ~kRounding) return false;
  orc::Spec s;
  if (!float_spec(in.type, s)) return false;
  switch (in.op) {
    case Op::add:
    case Op::sub:
    case Op::mul:
    case Op::fma:
    case Op::mad: return true;
    case Op::div:
    case Op::sqrt:
    case Op::rcp: return (in.mods & kRounding) != 0;  // else .approx/.full
    default: return false;
  }
}

orc::Rnd rounding(const Instr& in) {
  if (in.has(Mod::rz)) return orc::Rnd::rz;
  if (in.has(Mod::rm)) return orc::Rnd::rm;
  if (in.has(Mod::rp)) return orc::Rnd::rp;
  return orc::Rnd::rn;  // .rn, or no rounding modifier (the default)
}

uint64_t float_lane(const Instr& in, const orc::Spec& out, const double* v) {
  const orc::Rnd r = rounding(in);
  switch (in.op) {
    case Op::add: return orc::add(out, r, v[0], v[1]);
    case Op::sub: return orc::sub(out, r, v[0], v[1]);
    case Op::mul: return orc::mul(out, r, v[0], v[1]);
    case Op::fma:
    case Op::mad: return orc::fma(out, r, v[0], v[1], v[2]);
    case Op::div: return orc::div(out, r, v[0], v[1]);
    case Op::sqrt: return orc::sqrt(out, r, v[0]);
    case Op::rcp: return orc::rcp(out, r, v[0]);
    default: std::abort();
  }
}

uint64_t float_reference(const Instr& in, const uint64_t* src) {
  orc::Spec out{};
  float_spec(in.type, out);
  if (in.type2 != in.type) {  // mixed: the last source is .f32, the others of type2
    orc::Spec narrow{};
    float_spec(in.type2, narrow);
    double v[3] = {};
    for (unsigned k = 0; k < in.num_src; ++k) v[k] = orc::decode(k + 1 == in.num_src ? out : narrow, src[k]);
    return float_lane(in, out, v);
  }
  const unsigned lanes = info(in.type).lanes;
  const unsigned w = lane_bits(in.type);
  const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  uint64_t d = 0;
  for (unsigned l = 0; l < lanes; ++l) {
    double v[3] = {};
    for (unsigned k = 0; k < in.num_src; ++k) v[k] = orc::decode(out, (src[k] >> (l * w)) & mask);
    d |= (float_lane(in, out, v) & mask) << (l * w);
  }
  return d;
}

// ---- integers in 128-bit host arithmetic

struct IntType {
  unsigned n;  // lane width
  unsigned lanes;
  bool sgn;
};

bool int_type(Type t, IntType& it) {
  const TypeInfo& i = info(t);
  if (i.cls == TypeClass::floating) return false;
  it = {static_cast<unsigned>(i.bits / i.lanes), i.lanes, i.cls == TypeClass::signed_int};
  return true;
}

// The high n bits of the exact 2n-bit product (arithmetic shift for signed).
s128 high_half(s128 p, unsigned n) {
  s128 q = p / (s128{1} << n);
  if (p < 0 && q * (s128{1} << n) != p) q -= 1;  // floor
  return q;
}

bool int_covered(const Instr& in) {
  IntType it;
  if (!int_type(in.type, it)) return false;
  if (in.op == Op::cvt) return in.has(Mod::pack);
  switch (in.op) {
    case Op::mov:
    case Op::add:
    case Op::sub:
    case Op::addc:
    case Op::subc:
    case Op::mul:
    case Op::mad:
    case Op::madc:
    case Op::div:
    case Op::rem:
    case Op::abs:
    case Op::neg:
    case Op::min:
    case Op::max:
    case Op::popc:
    case Op::clz:
    case Op::brev:
    case Op::and_:
    case Op::or_:
    case Op::xor_:
    case Op::not_:
    case Op::cnot:
    case Op::shl:
    case Op::shr:
    case Op::selp: return true;
    default: return false;
  }
}

struct IntResult {
  uint64_t value;
  bool carry;
};

IntResult int_lane(const Instr& in, const IntType& it, const uint64_t* s, bool cf) {
  const unsigned n = it.n;
  const s128 a = value_of(s[0], n, it.sgn), b = in.num_src > 1 ? value_of(s[1], n, it.sgn) : 0;
  const u128 ua = u128{s[0]} & mask_of(n), ub = in.num_src > 1 ? u128{s[1]} & mask_of(n) : 0;
  const bool sat = in.has(Mod::sat);
  switch (in.op) {
    case Op::add:
    case Op::addc: {
      const unsigned ci = in.op == Op::addc && cf ? 1 : 0;
      if (sat) return {clamp(a + b + ci, n, true), false};
      const u128 sum = ua + ub + ci;
      return {pattern(static_cast<s128>(sum), n), (sum >> n) != 0};
    }
    case Op::sub:
    case Op::subc: {
      // a + ~b + CF: CF = 1 for sub, so d = a - b; the carry is "no borrow".
      const unsigned ci = in.op == Op::sub || cf ? 1 : 0;
      if (sat) return {clamp(a - b - (1 - ci), n, true), false};
      const u128 sum = ua + (~ub & mask_of(n)) + ci;
      return {pattern(static_cast<s128>(sum), n), (sum >> n) != 0};
    }
    case Op::mul:
    case Op::mad:
    case Op::madc: {
      // The exact product: signed |p| <= 2^126; unsigned 64-bit operands use
      // `up` (their product would overflow s128).
      const s128 p = it.sgn || n < 64 ? a * b : 0;
      const u128 up = ua * ub;
      if (in.has(Mod::wide)) {
        const unsigned w = 2 * n;
        if (in.op == Op::mul) return {pattern(p, w), false};
        return {pattern(p + value_of(s[2], w, it.sgn), w), false};
      }
      // The n-bit part kept.
      uint64_t part;
      s128 part_value;  // the part as a number, for .sat
      if (in.has(Mod::hi)) {
        part = it.sgn ? pattern(high_half(p, n), n) : static_cast<uint64_t>(up >> n);
        part_value = it.sgn ? high_half(p, n) : static_cast<s128>(up >> n);
      } else {
        part = static_cast<uint64_t>(up & mask_of(n));
        part_value = 0;
      }
      if (in.op == Op::mul) return {part, false};
      const unsigned ci = in.op == Op::madc && cf ? 1 : 0;
      if (sat) return {clamp(part_value + value_of(s[2], n, true) + ci, n, true), false};
      const u128 sum = u128{part} + (u128{s[2]} & mask_of(n)) + ci;
      return {pattern(static_cast<s128>(sum), n), (sum >> n) != 0};
    }
    case Op::div:  // by zero: all ones; MIN / -1 wraps (README, "Semantics where PTX leaves a choice")
      if (b == 0) return {pattern(-1, n), false};
      return {pattern(a / b, n), false};  // C++ truncates toward zero, as PTX does
    case Op::rem:
      if (b == 0) return {pattern(a, n), false};
      return {pattern(a % b, n), false};
    case Op::abs: return {pattern(a < 0 ? -a : a, n), false};
    case Op::neg: return {pattern(-a, n), false};
    case Op::min:
    case Op::max: {
      s128 r = (in.op == Op::min) == (b < a) ? b : a;
      if (in.has(Mod::relu) && r < 0) r = 0;
      return {pattern(r, n), false};
    }
    case Op::popc: {
      uint64_t c = 0;
      for (unsigned i = 0; i < n; ++i) c += (ua >> i) & 1;
      return {c, false};
    }
    case Op::clz: {
      uint64_t c = 0;
      while (c < n && !((ua >> (n - 1 - c)) & 1)) ++c;
      return {c, false};
    }
    case Op::brev: {
      u128 r = 0;
      for (unsigned i = 0; i < n; ++i) r |= ((ua >> i) & 1) << (n - 1 - i);
      return {static_cast<uint64_t>(r), false};
    }
    case Op::and_: return {static_cast<uint64_t>(ua & ub), false};
    case Op::or_: return {static_cast<uint64_t>(ua | ub), false};
    case Op::xor_: return {static_cast<uint64_t>(ua ^ ub), false};
    case Op::not_: return {static_cast<uint64_t>(~ua & mask_of(n)), false};
    case Op::cnot: return {ua == 0 ? 1u : 0u, false};
    case Op::shl:  // amounts of the width or more leave nothing
      return {s[1] >= n ? 0 : pattern(static_cast<s128>(ua << s[1]), n), false};
    case Op::shr:  // ... or, for .s, the sign in every bit
      return {pattern(s[1] >= n ? (a < 0 ? -1 : 0) : a >> s[1], n), false};
    case Op::selp: return {(s[2] & 1) ? s[0] : s[1], false};
    default: std::abort();
  }
}

// cvt.pack.sat: a and b clamped to the n-bit type, a above b, c's bits above both.
uint64_t pack_reference(const Instr& in, const uint64_t* src) {
  const IntType it{info(in.type).bits, 1, info(in.type).cls == TypeClass::signed_int};
  const u128 a = clamp(value_of(src[0], 32, true), it.n, it.sgn), b = clamp(value_of(src[1], 32, true), it.n, it.sgn);
  const u128 c = in.num_src == 3 ? u128{src[2]} : 0;
  return static_cast<uint64_t>(((c << (2 * it.n)) | (a << it.n) | b) & mask_of(32));
}

// mov: the elements, first lowest, as one number of the type's width.
u128 mov_reference(const Instr& in, const uint64_t* src) {
  if (is_vector(in.row->dest)) return u128{src[0]} | (u128{src[1]} << 64);  // unpack: the scalar itself
  const unsigned w = info(in.type).bits / in.num_src;
  u128 d = 0;
  for (unsigned k = 0; k < in.num_src; ++k) d |= (u128{src[k]} & mask_of(w)) << (k * w);
  return d;
}

IntResult int_reference(const Instr& in, const uint64_t* src, bool cf) {
  if (in.op == Op::cvt) return {pack_reference(in, src), false};
  IntType it{};
  int_type(in.type, it);
  if (it.lanes == 1) return int_lane(in, it, src, cf);
  uint64_t d = 0;
  for (unsigned l = 0; l < it.lanes; ++l) {
    uint64_t s[4] = {};
    for (unsigned k = 0; k < in.num_src; ++k) s[k] = (src[k] >> (l * it.n)) & ((uint64_t{1} << it.n) - 1);
    d |= int_lane(in, it, s, cf).value << (l * it.n);
  }
  return {d, false};
}

// ---- stochastic rounding, in integers: x = m * 2^e, u = 2^ue the
// destination's ulp at |x| (its subnormal quantum below the normal range);
// the result is floor((floor(|x| * 2^(K - ue)) + r) / 2^K) ulps.

struct RsFormat {
  Type type;
  orc::Spec spec;  // IEEE-like: f16, bf16, e5m2
  unsigned K;      // random bits per value
};
constexpr RsFormat kRsFormats[] = {
    {Type::f16x2, orc::kF16, 13}, {Type::bf16x2, orc::kBF16, 16}, {Type::e5m2x4, orc::Spec{5, 2}, 8}};

const RsFormat* rs_format(const Instr& in) {
  if (in.op != Op::cvt || !in.has(Mod::rs)) return nullptr;
  for (const RsFormat& f : kRsFormats)
    if (f.type == in.type) return &f;
  return nullptr;
}

uint64_t rs_lane(const RsFormat& f, uint32_t a, uint32_t r, bool sat, bool relu) {
  const unsigned e_bits = static_cast<unsigned>(f.spec.exp_bits), m_bits = static_cast<unsigned>(f.spec.frac_bits);
  const uint64_t sign_bit = uint64_t{1} << (e_bits + m_bits), exp_all = ((uint64_t{1} << e_bits) - 1) << m_bits;
  const uint64_t max = exp_all - 1, nan = exp_all | ((uint64_t{1} << m_bits) - 1);
  const bool neg = a >> 31;
  const unsigned ea = (a >> 23) & 0xff;
  const uint32_t fa = a & 0x7fffff;
  if (ea == 0xff && fa) return nan;
  if (relu && neg) return 0;
  const uint64_t s = neg ? sign_bit : 0;
  if (ea == 0xff) return s | (sat ? max : exp_all);
  if (ea == 0 && fa == 0) return s;
  // |x| = mant * 2^exp
  const uint64_t mant = ea ? fa | 0x800000u : fa;
  const int exp = (ea ? static_cast<int>(ea) : 1) - 127 - 23;
  const int top = exp + 63 - __builtin_clzll(mant);  // floor(log2 |x|)
  const int bias = (1 << (e_bits - 1)) - 1;
  const int emin = 1 - bias;
  const int ue = (top < emin ? emin : top) - static_cast<int>(m_bits);
  // floor(|x| * 2^(K - ue)), then add r and drop K bits
  const int shift = exp - ue + static_cast<int>(f.K);
  const u128 scaled = shift >= 0 ? u128{mant} << shift : (-shift >= 64 ? 0 : u128{mant} >> -shift);
  const u128 kept = (scaled + r) >> f.K;  // in ulps of 2^ue
  const u128 down = scaled >> f.K;
  const bool carry = kept > down;
  const double v = std::ldexp(static_cast<double>(static_cast<uint64_t>(kept)), ue);
  const double vmax = orc::decode(f.spec, max);
  if (v > vmax) return s | (sat || !carry ? max : exp_all);
  return s | orc::encode(f.spec, v);
}

uint64_t rs_reference(const Instr& in, const RsFormat& f, const uint64_t* src) {
  const unsigned n = info(in.type).lanes, w = info(in.type).bits / n;
  const auto rbits = static_cast<uint32_t>(src[n]);
  uint64_t d = 0;
  for (unsigned k = 0; k < n; ++k) {
    // a: upper half (f16x2: its 13 LSBs), b: lower half; x4: byte 3 - k
    uint32_t r = n == 2 ? (k == 0 ? rbits >> 16 : rbits & 0xffff) : (rbits >> (24 - 8 * k)) & 0xff;
    if (f.K == 13) r &= 0x1fff;
    d |= rs_lane(f, static_cast<uint32_t>(src[k]), r, in.has(Mod::satfinite), in.has(Mod::relu)) << ((n - 1 - k) * w);
  }
  return d;
}

// ---- the forms and the line

struct Forms {
  std::vector<Instr> covered, all;
};

const Forms& forms() {
  static const Forms f = [] {
    Forms f;
    for_each_legal_form([&f](const Instr& in) {
      f.all.push_back(in);
      if (float_covered(in) || int_covered(in) || rs_format(in) || alu_covered(in) || cvt_covered(in))
        f.covered.push_back(in);
    });
    return f;
  }();
  return f;
}

uint64_t take(const uint8_t*& p, const uint8_t* end, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= uint64_t{p < end ? *p++ : uint8_t{0}} << (8 * i);
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const Forms& f = forms();
  size_t floats = 0, ints = 0, stochastic = 0, alu = 0;
  for (const Instr& in : f.covered) {
    floats += float_covered(in) ? 1 : 0;
    ints += int_covered(in) ? 1 : 0;
    stochastic += rs_format(in) ? 1 : 0;
    alu += alu_covered(in) ? 1 : 0;
  }
  std::fprintf(stderr,
               "fuzz_eval_diff: the reference covers %zu of the %zu legal forms (%zu float, %zu integer, %zu "
               "stochastic rounding, %zu comparison/logic/permute, %zu cvt)\n",
               f.covered.size(), f.all.size(), floats, ints, stochastic, alu,
               f.covered.size() - floats - ints - stochastic - alu);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t* p = data;
  const uint8_t* end = data + size;
  const Forms& f = forms();
  const uint64_t pick = take(p, end, 3);
  // Mostly forms the reference covers; one input in eight any legal form.
  const bool any = (pick & 7) == 0;
  const std::vector<Instr>& pool = any ? f.all : f.covered;
  const Instr in = pool[(pick >> 3) % pool.size()];
  const bool cf = take(p, end, 1) & 1;

  uint64_t src[ptxfu::isa::kMaxSources + 1] = {};  // a 128-bit value takes two words
  std::string line = spell(in);
  const unsigned dest_elements = elements(in.row->dest);
  if (dest_elements > 1) line += dest_elements == 2 ? " {_,_}" : " {_,_,_,_}";  // an unpacking mov
  for (unsigned k = 0, word = 0; k < in.num_src; ++k) {
    const unsigned bits = src_bits(in, k);
    if (bits > 64) {
      src[word] = take(p, end, 8);
      src[word + 1] = take(p, end, 8);
      line += ' ';
      line += hex(src[word + 1], 64) + hex(src[word], 64).substr(2);
      word += 2;
      continue;
    }
    src[word] =
        take(p, end, (bits + 7) / 8) & (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);  // a predicate: 1 bit
    line += ' ';
    line += hex(src[word++], bits);
  }
  if (reads_carry(in)) line += cf ? " cc=1" : " cc=0";

  // The .rs forms exist on sm_100a and sm_103a only, not on the newest target.
  ptxfu::cli::EvalOptions options;
  if (in.has(Mod::rs)) options.target.target = "sm_100a";
  // Five copies: eval evaluates a run of one form through the array forms,
  // four elements at a time in their SIMD kernels, the fifth alone; every
  // copy must print the same (and below, the reference's) value.
  constexpr int kCopies = 5;
  std::string input;
  for (int i = 0; i < kCopies; ++i) input += line + "\n";
  const ptxfu::fuzz::EvalRun r = ptxfu::fuzz::run_eval_on(input, options);
  std::string got = r.out.substr(0, r.out.find('\n'));
  std::string copies;
  for (int i = 0; i < kCopies; ++i) copies += got + "\n";
  if (r.out != copies) fail(line, r.out, "the same line " + std::to_string(kCopies) + " times");

  // A vector destination prints its elements, a 128-bit one 32 digits.
  const auto print = [&](u128 v) {
    const unsigned w = dest_bits(in);
    if (w > 64) return hex(static_cast<uint64_t>(v >> 64), 64) + hex(static_cast<uint64_t>(v), 64).substr(2);
    if (dest_elements == 1) return hex(static_cast<uint64_t>(v), w);
    std::string text;
    for (unsigned i = 0; i < dest_elements; ++i)
      text += (i ? " " : "") + hex(static_cast<uint64_t>((v >> (i * w)) & mask_of(w)), w);
    return text;
  };
  std::string want;
  if (float_covered(in)) {
    want = hex(float_reference(in, src), dest_bits(in));
  } else if (const RsFormat* rs = rs_format(in)) {
    want = hex(rs_reference(in, *rs, src), dest_bits(in));
  } else if (in.op == Op::mov) {
    want = print(mov_reference(in, src));
  } else if (int_covered(in)) {
    const IntResult ref = int_reference(in, src, cf);
    want = hex(ref.value, dest_bits(in));
    if (writes_carry(in)) want += ref.carry ? " cc=1" : " cc=0";
  } else if (alu_covered(in)) {
    want = alu_reference(in, src);
  } else if (cvt_covered(in)) {
    want = cvt_reference(in, src);
  } else {
    // Not covered by the reference: one well-formed value of the right width.
    want = got;
    const size_t digits =
        (dest_bits(in) + 3) / 4;  // a predicate: one digit (no uncovered form has a vector or 128 bits)
    const size_t sp = got.find(' ');
    const std::string value = got.substr(0, sp);
    // after the value: " 0x0"/" 0x1" for a second destination (p|q, d|p), " cc=N" for the carry
    const std::string rest = sp == std::string::npos ? "" : got.substr(sp);
    const size_t rest_size = (num_dests(in) == 2 ? 4 : 0) + (writes_carry(in) ? 5 : 0);
    if (r.status != 0 || value.size() != 2 + digits || value.compare(0, 2, "0x") != 0 ||
        value.find_first_not_of("0123456789abcdef", 2) != std::string::npos || rest.size() != rest_size)
      fail(line, got, "one value of " + std::to_string(dest_bits(in)) + " bits");
    return 0;
  }
  if (r.status != 0 || got != want) fail(line, got, want);
  return 0;
}
