#include "isa/table.h"

#include <algorithm>
#include <initializer_list>

namespace ptxfu::isa {
namespace {

template <typename... T>
constexpr OpMask ops(T... o) {
  return (op_bit(o) | ...);
}
template <typename... T>
constexpr TypeMask types(T... t) {
  return (type_bit(t) | ...);
}
template <typename... T>
constexpr ModSet mods(T... m) {
  return (ModSet{0} | ... | bit(m));
}

// Builds a row by naming each column; what a family leaves out keeps the
// FormRow default.
class Form {
 public:
  constexpr Form(OpMask o, TypeMask t, unsigned sources, Pipe p, Executor e) {
    row_.ops = o;
    row_.types = t;
    row_.num_src = static_cast<uint8_t>(sources);
    for (unsigned i = 0; i < sources; ++i) row_.src[i] = Operand::reg;
    row_.pipe = p;
    row_.executor = e;
  }
  // One column, set: every builder below is one of these.
  template <typename T>
  constexpr Form with(T FormRow::*column, T value) const {
    Form c = *this;
    c.row_.*column = value;
    return c;
  }
  constexpr Form second_type(TypeMask t) const { return with(&FormRow::types2, t); }
  constexpr Form third_type(TypeMask t) const { return with(&FormRow::types3, t); }
  // One of `m` must be present, and it picks this row over its neighbours.
  constexpr Form select(ModSet m) const { return with(&FormRow::selector, m); }
  constexpr Form require(ModSet m) const { return with(&FormRow::required, m); }
  constexpr Form allow(ModSet m) const { return with(&FormRow::optional, m); }
  constexpr Form needs(const char* f) const { return with(&FormRow::feature, feature(f)); }
  // Modifier `m` needs feature `f` from the target.
  constexpr Form mod_needs(Mod m, const char* f) const {
    auto features = row_.mod_features;
    features[features[0].feature == kNoFeature ? 0 : 1] = {m, feature(f)};
    return with(&FormRow::mod_features, features);
  }
  constexpr Form shape(Shape s) const { return with(&FormRow::shape, s); }
  constexpr Form on(Pipe p) const { return with(&FormRow::pipe, p); }
  constexpr Form dest(Operand d) const { return with(&FormRow::dest, d); }
  // The form takes one of these comparisons (setp, set).
  constexpr Form compare(CmpSet c) const { return with(&FormRow::cmps, c); }
  // Source operand kinds, where they are not all registers of the shape's width.
  constexpr Form sources(std::initializer_list<Operand> kinds) const {
    std::array<Operand, kMaxSources> src{};
    unsigned n = 0;
    for (Operand k : kinds) src[n++] = k;
    return with(&FormRow::src, src).with(&FormRow::num_src, static_cast<uint8_t>(n));
  }
  constexpr Form reads_carry() const { return with(&FormRow::carry_in, true); }
  constexpr operator FormRow() const { return row_; }

 private:
  FormRow row_;
};

// The families: which part of the core computes them, and their usual pipe.
constexpr Form integer(OpMask o, TypeMask t, unsigned sources) {
  return Form(o, t, sources, Pipe::alu, Executor::integer);
}
constexpr Form floating(OpMask o, TypeMask t, unsigned sources) {
  return Form(o, t, sources, Pipe::fma, Executor::floating);
}
// The f16/bf16 arithmetic and mixed precision: the half-precision pipe (HFMA2).
constexpr Form half(OpMask o, TypeMask t, unsigned sources) {
  return Form(o, t, sources, Pipe::fp16, Executor::floating);
}
// cvt: d of the first type, `sources` operands of the second, on the
// conversion unit (F2F, F2I, I2F, FRND).
constexpr Form convert(TypeMask to, TypeMask from, unsigned sources = 1) {
  return Form(op_bit(Op::cvt), to, sources, Pipe::conv, Executor::convert).second_type(from).shape(Shape::convert);
}
// cvt between integers (I2I) and the conversions that pack two or four
// narrow floats into 32 bits or unpack them (F2FP): on the ALU (Mesa NAK's
// op_category: CoupledAlu / Alu).
constexpr Form convert_int(TypeMask to, TypeMask from) { return convert(to, from).on(Pipe::alu); }
constexpr Form convert_pack(TypeMask to, TypeMask from, unsigned sources = 1) {
  return convert(to, from, sources).on(Pipe::alu);
}
// cvt.pack.sat: d (32 bits) packs a and b of the second type, saturated to
// the first; the narrower forms take the rest of d from c, of the third.
constexpr Form packing(TypeMask to, unsigned sources) {
  return Form(op_bit(Op::cvt), to, sources, Pipe::alu, Executor::convert)
      .second_type(type_bit(Type::s32))
      .select(bit(Mod::pack))
      .require(bit(Mod::sat))
      .shape(Shape::pack_int);
}
// mov's pack (d, {a, b}) and unpack ({d, e}, a) forms.
constexpr Form moving(TypeMask t) { return Form(op_bit(Op::mov), t, 1, Pipe::alu, Executor::move).shape(Shape::pack); }
constexpr Form approximate(OpMask o, TypeMask t, unsigned sources) {
  return Form(o, t, sources, Pipe::mufu, Executor::approx);
}
// setp: p[|q] = a CmpOp b, one of the comparisons `c`.
constexpr Form setp(TypeMask t, CmpSet c) {
  return Form(op_bit(Op::setp), t, 2, Pipe::alu, Executor::compare).compare(c).dest(Operand::pred_pair);
}
// set: d of a type in `d`, a and b of a type in `s`.
constexpr Form set(TypeMask d, TypeMask s, CmpSet c) {
  return Form(op_bit(Op::set), d, 2, Pipe::alu, Executor::compare).second_type(s).compare(c).shape(Shape::convert);
}
// The same form combined with a predicate c by .and/.or/.xor (setp, set).
constexpr Form boolean(Form f) { return f.select(kBoolMods).sources({Operand::reg, Operand::reg, Operand::pred}); }
constexpr Form selecting(OpMask o, TypeMask t, unsigned sources) {
  return Form(o, t, sources, Pipe::alu, Executor::compare);
}

constexpr CmpSet cmps() { return 0; }
template <typename... C>
constexpr CmpSet cmps(Cmp first, C... rest) {
  return cmp_bit(first) | cmps(rest...);
}

using O = Op;
using T = Type;
using M = Mod;
using P = Pipe;
using S = Shape;

constexpr ModSet kRnd = kRoundingMods;
constexpr ModSet kHiLo = mods(M::hi, M::lo);
constexpr TypeMask kInt6 = types(T::u16, T::u32, T::u64, T::s16, T::s32, T::s64);
constexpr TypeMask kF16 = types(T::f16, T::f16x2);
constexpr TypeMask kBF16 = types(T::bf16, T::bf16x2);
constexpr TypeMask kWord32 = types(T::u32, T::s32);
constexpr TypeMask kF32F64 = types(T::f32, T::f64);
constexpr TypeMask kBits3 = types(T::b16, T::b32, T::b64);
constexpr TypeMask kUnsigned3 = types(T::u16, T::u32, T::u64);
constexpr TypeMask kSigned3 = types(T::s16, T::s32, T::s64);
constexpr TypeMask kScalar11 = kBits3 | kUnsigned3 | kSigned3 | kF32F64;  // selp, slct, set's sources
constexpr TypeMask kSetDest = types(T::u32, T::s32, T::f32);
constexpr TypeMask kSetHalfDest = types(T::u16, T::s16, T::u32, T::s32);
constexpr TypeMask kWordDest = types(T::u32, T::s32);
using C = Cmp;
// .b types compare for equality; .u types add the unsigned orderings; the
// float types add the unordered forms, .num and .nan.
constexpr CmpSet kCmpBits = cmps(C::eq, C::ne);
constexpr CmpSet kCmpSigned = kCmpBits | cmps(C::lt, C::le, C::gt, C::ge);
constexpr CmpSet kCmpUnsigned = kCmpSigned | cmps(C::lo, C::ls, C::hi, C::hs);
constexpr CmpSet kCmpFloat = kCmpSigned | cmps(C::equ, C::neu, C::ltu, C::leu, C::gtu, C::geu, C::num, C::nan);
constexpr ModSet kFtz = mods(M::ftz);
constexpr TypeMask kCvtSigned = types(T::s8, T::s16, T::s32, T::s64);
constexpr TypeMask kCvtUnsigned = types(T::u8, T::u16, T::u32, T::u64);
constexpr TypeMask kCvtInt = kCvtSigned | kCvtUnsigned;
constexpr TypeMask kCvtInt16Up = types(T::s16, T::s32, T::s64, T::u16, T::u32, T::u64);

// More specific rows come first.
constexpr FormRow kRows[] = {
    // ---- comparison and selection (exec_compare.cc); each comparing form
    // also exists with a boolean operation and a predicate source c
    setp(kBits3, kCmpBits),
    boolean(setp(kBits3, kCmpBits)),
    setp(kUnsigned3, kCmpUnsigned),
    boolean(setp(kUnsigned3, kCmpUnsigned)),
    setp(kSigned3, kCmpSigned),
    boolean(setp(kSigned3, kCmpSigned)),
    setp(types(T::f32), kCmpFloat).allow(kFtz),
    boolean(setp(types(T::f32), kCmpFloat)).allow(kFtz),
    setp(types(T::f64), kCmpFloat).on(P::fp64),
    boolean(setp(types(T::f64), kCmpFloat)).on(P::fp64),
    // the scalar halves write p alone; the x2 packs p (lane 0) and q (lane 1)
    setp(types(T::f16), kCmpFloat).allow(kFtz).needs("half_compare").dest(Operand::pred),
    boolean(setp(types(T::f16), kCmpFloat)).allow(kFtz).needs("half_compare").dest(Operand::pred),
    setp(types(T::f16x2), kCmpFloat).allow(kFtz).needs("half_compare"),
    boolean(setp(types(T::f16x2), kCmpFloat)).allow(kFtz).needs("half_compare"),
    setp(types(T::bf16), kCmpFloat).needs("bf16_compare").dest(Operand::pred),
    boolean(setp(types(T::bf16), kCmpFloat)).needs("bf16_compare").dest(Operand::pred),
    setp(types(T::bf16x2), kCmpFloat).needs("bf16_compare"),
    boolean(setp(types(T::bf16x2), kCmpFloat)).needs("bf16_compare"),
    // set: 1.0 in the float destinations, all ones in the integer ones
    set(kSetDest, kBits3, kCmpBits),
    boolean(set(kSetDest, kBits3, kCmpBits)),
    set(kSetDest, kUnsigned3, kCmpUnsigned),
    boolean(set(kSetDest, kUnsigned3, kCmpUnsigned)),
    set(kSetDest, kSigned3, kCmpSigned),
    boolean(set(kSetDest, kSigned3, kCmpSigned)),
    set(kSetDest, types(T::f32), kCmpFloat).allow(kFtz),
    boolean(set(kSetDest, types(T::f32), kCmpFloat)).allow(kFtz),
    set(kSetDest, types(T::f64), kCmpFloat),
    boolean(set(kSetDest, types(T::f64), kCmpFloat)),
    set(kSetHalfDest, types(T::f16), kCmpFloat).allow(kFtz).needs("half_set_int"),
    boolean(set(kSetHalfDest, types(T::f16), kCmpFloat)).allow(kFtz).needs("half_set_int"),
    set(kWordDest, types(T::f16x2), kCmpFloat).allow(kFtz).needs("half_set_int"),
    boolean(set(kWordDest, types(T::f16x2), kCmpFloat)).allow(kFtz).needs("half_set_int"),
    set(kSetHalfDest, types(T::bf16), kCmpFloat).needs("bf16_compare_src"),
    boolean(set(kSetHalfDest, types(T::bf16), kCmpFloat)).needs("bf16_compare_src"),
    set(kWordDest, types(T::bf16x2), kCmpFloat).needs("bf16_compare_src"),
    boolean(set(kWordDest, types(T::bf16x2), kCmpFloat)).needs("bf16_compare_src"),
    set(types(T::f16), kBits3, kCmpBits).needs("half_compare"),
    boolean(set(types(T::f16), kBits3, kCmpBits)).needs("half_compare"),
    set(types(T::f16), kUnsigned3, kCmpUnsigned).needs("half_compare"),
    boolean(set(types(T::f16), kUnsigned3, kCmpUnsigned)).needs("half_compare"),
    set(types(T::f16), kSigned3, kCmpSigned).needs("half_compare"),
    boolean(set(types(T::f16), kSigned3, kCmpSigned)).needs("half_compare"),
    set(types(T::f16), types(T::f16, T::f32), kCmpFloat).allow(kFtz).needs("half_compare"),
    boolean(set(types(T::f16), types(T::f16, T::f32), kCmpFloat)).allow(kFtz).needs("half_compare"),
    set(types(T::f16), types(T::f64), kCmpFloat).needs("half_compare"),
    boolean(set(types(T::f16), types(T::f64), kCmpFloat)).needs("half_compare"),
    set(types(T::f16x2), types(T::f16x2), kCmpFloat).allow(kFtz).needs("half_compare"),
    boolean(set(types(T::f16x2), types(T::f16x2), kCmpFloat)).allow(kFtz).needs("half_compare"),
    set(types(T::bf16), kBits3, kCmpBits).needs("bf16_compare"),
    boolean(set(types(T::bf16), kBits3, kCmpBits)).needs("bf16_compare"),
    set(types(T::bf16), kUnsigned3, kCmpUnsigned).needs("bf16_compare"),
    boolean(set(types(T::bf16), kUnsigned3, kCmpUnsigned)).needs("bf16_compare"),
    set(types(T::bf16), kSigned3, kCmpSigned).needs("bf16_compare"),
    boolean(set(types(T::bf16), kSigned3, kCmpSigned)).needs("bf16_compare"),
    set(types(T::bf16), types(T::bf16, T::f16, T::f32, T::f64), kCmpFloat).needs("bf16_compare"),
    boolean(set(types(T::bf16), types(T::bf16, T::f16, T::f32, T::f64), kCmpFloat)).needs("bf16_compare"),
    set(types(T::bf16x2), types(T::bf16x2), kCmpFloat).needs("bf16_compare"),
    boolean(set(types(T::bf16x2), types(T::bf16x2), kCmpFloat)).needs("bf16_compare"),
    // selp: d = c ? a : b; slct: d = c >= 0 ? a : b, c of the second type
    selecting(ops(O::selp), kScalar11, 3).sources({Operand::reg, Operand::reg, Operand::pred}),
    selecting(ops(O::slct), kScalar11, 3).second_type(types(T::s32)).shape(S::select),
    selecting(ops(O::slct), kScalar11, 3).second_type(types(T::f32)).allow(kFtz).shape(S::select),
    // ---- logic and shift (src/int/logic.cc, shift.cc)
    integer(ops(O::and_, O::or_, O::xor_), kBits3, 2),
    integer(ops(O::and_, O::or_, O::xor_), types(T::pred), 2)
        .dest(Operand::pred)
        .sources({Operand::pred, Operand::pred}),
    integer(ops(O::not_, O::cnot), kBits3, 1),
    integer(ops(O::not_), types(T::pred), 1).dest(Operand::pred).sources({Operand::pred}),
    integer(ops(O::lop3), types(T::b32), 4).sources({Operand::reg, Operand::reg, Operand::reg, Operand::imm}),
    integer(ops(O::lop3), types(T::b32), 5)
        .select(mods(M::and_, M::or_))
        .dest(Operand::reg_pred)
        .sources({Operand::reg, Operand::reg, Operand::reg, Operand::imm, Operand::pred})
        .needs("lop3_boolop"),
    integer(ops(O::shl), kBits3, 2).shape(S::shift),
    integer(ops(O::shr), kBits3 | kUnsigned3 | kSigned3, 2).shape(S::shift),
    // shf.l / shf.r: the direction is required, and one of .wrap/.clamp
    integer(ops(O::shf), types(T::b32), 3).select(mods(M::clamp, M::wrap)).require(mods(M::l)),
    integer(ops(O::shf), types(T::b32), 3).select(mods(M::clamp, M::wrap)).require(mods(M::r)),
    integer(ops(O::prmt), types(T::b32), 3).select(kPrmtMods),  // one mode, or the generic form below
    integer(ops(O::prmt), types(T::b32), 3),
    // ---- integer arithmetic
    integer(ops(O::add, O::sub), types(T::u16, T::s16), 2),
    integer(ops(O::add, O::sub), types(T::u32, T::u64, T::s64), 2).allow(mods(M::cc)),
    integer(ops(O::add, O::sub), types(T::s32), 2).allow(mods(M::sat, M::cc)),
    // ptxas 13.0 accepts add but not sub on the 16x2 packs, whatever the spec's syntax block says.
    integer(ops(O::add), types(T::u16x2, T::s16x2), 2).needs("int_simd16x2"),
    integer(ops(O::addc, O::subc), types(T::u32, T::u64, T::s64), 2).allow(mods(M::cc)).reads_carry(),
    integer(ops(O::addc, O::subc), types(T::s32), 2).allow(mods(M::sat, M::cc)).reads_carry(),
    // 16-bit carry-in forms, outside the spec's syntax block: ptxas 13.0 takes them (no .cc, no .sat)
    integer(ops(O::addc, O::subc), types(T::u16, T::s16), 2).reads_carry(),
    integer(ops(O::mul), kInt6, 2).select(kHiLo).on(P::fma),
    integer(ops(O::mul), types(T::u16, T::u32, T::s16, T::s32), 2).select(mods(M::wide)).shape(S::wide).on(P::fma),
    integer(ops(O::mad), types(T::u16, T::s16), 3).select(kHiLo).on(P::fma),
    integer(ops(O::mad), types(T::u32, T::u64, T::s64), 3).select(kHiLo).allow(mods(M::cc)).on(P::fma),
    integer(ops(O::mad), types(T::s32), 3).select(kHiLo).allow(mods(M::sat, M::cc)).on(P::fma),
    integer(ops(O::mad), types(T::u16, T::u32, T::s16, T::s32), 3).select(mods(M::wide)).shape(S::wide).on(P::fma),
    integer(ops(O::madc), types(T::u32, T::u64, T::s64), 3).select(kHiLo).allow(mods(M::cc)).reads_carry().on(P::fma),
    integer(ops(O::madc), types(T::s32), 3).select(kHiLo).allow(mods(M::sat, M::cc)).reads_carry().on(P::fma),
    integer(ops(O::madc), types(T::u16, T::s16), 3).select(kHiLo).reads_carry().on(P::fma),
    integer(ops(O::mul24), kWord32, 2).select(kHiLo).on(P::fma),
    integer(ops(O::mad24), types(T::u32), 3).select(kHiLo).on(P::fma),
    integer(ops(O::mad24), types(T::s32), 3).select(kHiLo).allow(mods(M::sat)).on(P::fma),
    integer(ops(O::sad), kInt6, 3),
    integer(ops(O::div, O::rem), kInt6, 2).on(P::multi),
    integer(ops(O::abs, O::neg), types(T::s16, T::s32, T::s64), 1),
    integer(ops(O::min, O::max), types(T::u16, T::u32, T::u64, T::s16, T::s64), 2),
    integer(ops(O::min, O::max), types(T::s32), 2).allow(mods(M::relu)).mod_needs(M::relu, "int_relu"),
    integer(ops(O::min, O::max), types(T::u16x2), 2).needs("int_simd16x2"),
    integer(ops(O::min, O::max), types(T::s16x2), 2).allow(mods(M::relu)).needs("int_simd16x2"),
    // ---- bit manipulation and dot products
    integer(ops(O::popc, O::clz), types(T::b32, T::b64), 1).shape(S::count).on(P::mufu),
    integer(ops(O::bfind), types(T::u32, T::u64, T::s32, T::s64), 1)
        .allow(mods(M::shiftamt))
        .shape(S::count)
        .on(P::mufu),
    integer(ops(O::brev), types(T::b32, T::b64), 1).on(P::mufu),
    integer(ops(O::bfe), types(T::u32, T::u64, T::s32, T::s64), 3).shape(S::bfe),
    integer(ops(O::bfi), types(T::b32, T::b64), 4).shape(S::bfi),
    integer(ops(O::fns), types(T::b32), 3).needs("fns").shape(S::word),
    integer(ops(O::bmsk), types(T::b32), 2).select(mods(M::clamp, M::wrap)).needs("bmsk_szext").shape(S::word),
    integer(ops(O::szext), kWord32, 2).select(mods(M::clamp, M::wrap)).needs("bmsk_szext").shape(S::word),
    integer(ops(O::dp4a), kWord32, 3).second_type(kWord32).needs("dp4a").shape(S::word).on(P::fma),
    integer(ops(O::dp2a), kWord32, 3).second_type(kWord32).select(kHiLo).needs("dp4a").shape(S::word).on(P::fma),
    // ---- f32 and f64
    floating(ops(O::add, O::sub, O::mul), types(T::f32), 2).allow(kRnd | mods(M::ftz, M::sat)),
    floating(ops(O::add, O::sub, O::mul), types(T::f32x2), 2).allow(kRnd | mods(M::ftz)).needs("f32x2"),
    floating(ops(O::add, O::sub, O::mul), types(T::f64), 2).allow(kRnd).on(P::fp64),
    floating(ops(O::fma, O::mad), types(T::f32), 3).select(kRnd).allow(mods(M::ftz, M::sat)),
    floating(ops(O::fma), types(T::f32x2), 3).select(kRnd).allow(mods(M::ftz)).needs("f32x2"),
    floating(ops(O::fma, O::mad), types(T::f64), 3).select(kRnd).on(P::fp64),
    approximate(ops(O::div), types(T::f32), 2).select(mods(M::approx)).allow(mods(M::ftz)).on(P::multi),
    approximate(ops(O::div), types(T::f32), 2).select(mods(M::full)).allow(mods(M::ftz)).on(P::multi),
    floating(ops(O::div), types(T::f32), 2).select(kRnd).allow(mods(M::ftz)).on(P::multi),
    floating(ops(O::div), types(T::f64), 2).select(kRnd).on(P::multi),
    floating(ops(O::abs, O::neg), types(T::f32), 1).allow(mods(M::ftz)),
    floating(ops(O::abs, O::neg), types(T::f64), 1).on(P::fp64),
    floating(ops(O::min, O::max), types(T::f32), 2)
        .allow(mods(M::ftz, M::nan, M::xorsign, M::abs))
        .mod_needs(M::nan, "minmax_nan")
        .mod_needs(M::xorsign, "xorsign")
        .on(P::alu),
    floating(ops(O::min, O::max), types(T::f32), 3)
        .allow(mods(M::ftz, M::nan, M::abs))
        .needs("minmax_3input")
        .mod_needs(M::nan, "minmax_nan")
        .on(P::alu),
    floating(ops(O::min, O::max), types(T::f64), 2).on(P::fp64),
    floating(ops(O::copysign), kF32F64, 2).on(P::alu),
    floating(ops(O::testp), kF32F64, 1).select(kTestpMods).dest(Operand::pred).on(P::alu),
    approximate(ops(O::rcp, O::sqrt), types(T::f32), 1).select(mods(M::approx)).allow(mods(M::ftz)),
    floating(ops(O::rcp, O::sqrt), types(T::f32), 1).select(kRnd).allow(mods(M::ftz)).on(P::multi),
    approximate(ops(O::rcp), types(T::f64), 1).select(mods(M::approx)).require(mods(M::ftz)),
    floating(ops(O::rcp), types(T::f64), 1).select(kRnd).allow(mods(M::ftz)).on(P::multi),
    floating(ops(O::sqrt), types(T::f64), 1).select(kRnd).on(P::multi),
    approximate(ops(O::rsqrt), types(T::f32), 1).select(mods(M::approx)).allow(mods(M::ftz)),
    approximate(ops(O::rsqrt), types(T::f64), 1).select(mods(M::approx)).require(mods(M::ftz)),
    approximate(ops(O::rsqrt), types(T::f64), 1).select(mods(M::approx)).on(P::multi),
    approximate(ops(O::sin, O::cos, O::lg2, O::ex2), types(T::f32), 1).select(mods(M::approx)).allow(mods(M::ftz)),
    approximate(ops(O::tanh), types(T::f32), 1).select(mods(M::approx)).needs("tanh_f32"),
    // ---- half precision
    half(ops(O::add, O::sub, O::mul), kF16, 2).allow(mods(M::rn, M::ftz, M::sat)).needs("f16_arith"),
    half(ops(O::add, O::sub, O::mul), kBF16, 2).allow(mods(M::rn)).needs("bf16_arith"),
    half(ops(O::fma), kF16, 3)
        .select(mods(M::rn))
        .allow(mods(M::ftz, M::sat, M::relu, M::oob))
        .needs("f16_arith")
        .mod_needs(M::relu, "half_relu")
        .mod_needs(M::oob, "oob"),
    // ptxas 13.0 takes every rounding mode on bf16 fma (sm_80, PTX 7.0); f16 fma takes .rn only.
    half(ops(O::fma), kBF16, 3).select(kRnd).allow(mods(M::relu, M::oob)).needs("bf16_fma").mod_needs(M::oob, "oob"),
    half(ops(O::neg), kF16, 1).allow(mods(M::ftz)).needs("f16_neg"),
    half(ops(O::abs), kF16, 1).allow(mods(M::ftz)).needs("f16_abs"),
    half(ops(O::abs, O::neg), kBF16, 1).needs("bf16_absneg"),
    floating(ops(O::min, O::max), kF16, 2)
        .allow(mods(M::ftz, M::nan, M::xorsign, M::abs))
        .needs("half_minmax")
        .mod_needs(M::xorsign, "xorsign")
        .on(P::alu),
    floating(ops(O::min, O::max), kBF16, 2)
        .allow(mods(M::nan, M::xorsign, M::abs))
        .needs("half_minmax")
        .mod_needs(M::xorsign, "xorsign")
        .on(P::alu),
    approximate(ops(O::tanh), kF16, 1).select(mods(M::approx)).needs("half_tanh"),
    approximate(ops(O::tanh), kBF16, 1).select(mods(M::approx)).needs("bf16_tanh"),
    approximate(ops(O::ex2), kF16, 1).select(mods(M::approx)).needs("half_ex2"),
    approximate(ops(O::ex2), kBF16, 1).select(mods(M::approx)).require(mods(M::ftz)).needs("bf16_ex2"),
    // ---- mixed precision: d = cvt(a) op c, d = cvt(a) * cvt(b) + c
    half(ops(O::add, O::sub), types(T::f32), 2)
        .second_type(types(T::f16, T::bf16))
        .allow(kRnd | mods(M::sat))
        .needs("mixed_precision")
        .shape(S::mixed),
    half(ops(O::fma), types(T::f32), 3)
        .second_type(types(T::f16, T::bf16))
        .select(kRnd)
        .allow(mods(M::sat))
        .needs("mixed_precision")
        .shape(S::mixed),
    // ---- conversion (cvt)
    // Every row is d of the first type, sources of the second (S::convert).
    // Verdicts probed with ptxas 13.0 on sm_75..sm_121 (PTX 6.3..9.0).
    // int <- int: .sat where the source range does not fit the destination.
    convert_int(types(T::s64), kCvtSigned | types(T::u8, T::u16, T::u32)),
    convert_int(types(T::s32), types(T::s8, T::s16, T::s32, T::u8, T::u16)),
    convert_int(types(T::s16), types(T::s8, T::s16, T::u8)),
    convert_int(types(T::s8), types(T::s8)),
    convert_int(types(T::u64), kCvtUnsigned),
    convert_int(types(T::u32), types(T::u8, T::u16, T::u32)),
    convert_int(types(T::u16), types(T::u8, T::u16)),
    convert_int(types(T::u8), types(T::u8)),
    convert_int(types(T::s64), types(T::u64)).allow(mods(M::sat)),
    convert_int(types(T::s32), types(T::s64, T::u32, T::u64)).allow(mods(M::sat)),
    convert_int(types(T::s16), types(T::s32, T::s64, T::u16, T::u32, T::u64)).allow(mods(M::sat)),
    convert_int(types(T::s8), kCvtInt & ~types(T::s8)).allow(mods(M::sat)),
    convert_int(types(T::u64), kCvtSigned).allow(mods(M::sat)),
    convert_int(types(T::u32), kCvtSigned | types(T::u64)).allow(mods(M::sat)),
    convert_int(types(T::u16), kCvtSigned | types(T::u32, T::u64)).allow(mods(M::sat)),
    convert_int(types(T::u8), kCvtInt & ~types(T::u8)).allow(mods(M::sat)),
    // int <- float: an integer rounding is required; out-of-range saturates.
    convert(kCvtInt, types(T::f32)).select(kIntRoundingMods).allow(mods(M::ftz, M::sat)),
    convert(kCvtInt, types(T::f16, T::f64)).select(kIntRoundingMods).allow(mods(M::sat)),
    convert(kCvtInt16Up, types(T::bf16)).select(kIntRoundingMods).needs("cvt_bf16"),
    // float <- int
    convert(types(T::f32), kCvtInt).select(kRnd).allow(mods(M::ftz, M::sat)),
    convert(types(T::f16, T::f64), kCvtInt).select(kRnd).allow(mods(M::sat)),
    convert(types(T::bf16), kCvtInt16Up).select(kRnd).needs("cvt_bf16"),
    // float <- float, integral rounding within a format, then plain moves
    convert(types(T::f32), types(T::f32)).select(kIntRoundingMods).allow(mods(M::ftz, M::sat)),
    convert(types(T::f16), types(T::f16)).select(kIntRoundingMods).allow(mods(M::sat)),
    convert(types(T::f64), types(T::f64)).select(kIntRoundingMods).allow(mods(M::sat)),
    convert(types(T::bf16), types(T::bf16)).select(kIntRoundingMods).needs("cvt_bf16"),
    convert(types(T::f32), types(T::f32)).allow(mods(M::ftz, M::sat)),
    convert(types(T::f16), types(T::f16)).allow(mods(M::sat)),
    convert(types(T::f64), types(T::f64)).allow(mods(M::sat)),
    convert(types(T::bf16), types(T::bf16)).needs("cvt_bf16"),
    // narrowing to f16/bf16 from f32: .relu and .satfinite with .rn/.rz only
    convert(types(T::f16), types(T::f32))
        .select(mods(M::rn, M::rz))
        .require(mods(M::relu))
        .allow(mods(M::satfinite))
        .mod_needs(M::relu, "half_relu")
        .mod_needs(M::satfinite, "cvt_satfinite"),
    convert(types(T::f16), types(T::f32))
        .select(mods(M::rn, M::rz))
        .require(mods(M::satfinite))
        .mod_needs(M::satfinite, "cvt_satfinite"),
    convert(types(T::f16), types(T::f32)).select(kRnd).allow(mods(M::ftz, M::sat)),
    convert(types(T::bf16), types(T::f32))
        .select(mods(M::rn, M::rz))
        .require(mods(M::relu))
        .allow(mods(M::satfinite))
        .mod_needs(M::satfinite, "cvt_satfinite"),
    convert(types(T::bf16), types(T::f32))
        .select(mods(M::rn, M::rz))
        .require(mods(M::satfinite))
        .mod_needs(M::satfinite, "cvt_satfinite"),
    convert(types(T::bf16), types(T::f32)).select(kRnd).allow(mods(M::ftz)),
    convert(types(T::f16), types(T::f64)).select(kRnd).allow(mods(M::sat)),
    convert(types(T::f32), types(T::f64)).select(kRnd).allow(mods(M::ftz, M::sat)),
    convert(types(T::bf16), types(T::f64)).select(kRnd).needs("cvt_bf16"),
    // between f16 and bf16, and widening from bf16: rounding optional
    convert(types(T::bf16), types(T::f16)).allow(kRnd).needs("cvt_bf16"),
    convert(types(T::f16, T::f64), types(T::bf16)).allow(kRnd).needs("cvt_bf16"),
    convert(types(T::f32), types(T::bf16))
        .allow(kRnd | mods(M::ftz))
        .needs("cvt_f32_bf16")
        .mod_needs(M::ftz, "cvt_bf16_ftz"),
    // widening: exact, no rounding modifier
    convert(types(T::f32), types(T::f16)).allow(mods(M::ftz, M::sat)),
    convert(types(T::f64), types(T::f16)).allow(mods(M::sat)),
    convert(types(T::f64), types(T::f32)).allow(mods(M::ftz, M::sat)),
    // packing two f32 into f16x2/bf16x2: the first source to the upper half
    convert_pack(types(T::f16x2, T::bf16x2), types(T::f32), 2)
        .select(mods(M::rn, M::rz))
        .allow(mods(M::relu, M::satfinite))
        .needs("cvt_pack_half")
        .mod_needs(M::satfinite, "cvt_satfinite"),
    // tf32 in its 32-bit container: .rna (sm_80), .rn/.rz (sm_90)
    convert(types(T::tf32), types(T::f32))
        .select(mods(M::rna))
        .allow(mods(M::satfinite))
        .mod_needs(M::satfinite, "cvt_tf32_rna_satfinite"),
    convert(types(T::tf32), types(T::f32))
        .select(mods(M::rn, M::rz))
        .allow(mods(M::relu, M::satfinite))
        .needs("cvt_tf32_rn")
        .mod_needs(M::satfinite, "cvt_tf32_rn_satfinite"),
    // FP8 pairs (sm_89)
    convert_pack(types(T::e4m3x2, T::e5m2x2), types(T::f32), 2)
        .select(mods(M::rn))
        .require(mods(M::satfinite))
        .allow(mods(M::relu))
        .needs("cvt_fp8"),
    convert_pack(types(T::e4m3x2, T::e5m2x2), types(T::f16x2))
        .select(mods(M::rn))
        .require(mods(M::satfinite))
        .allow(mods(M::relu))
        .needs("cvt_fp8"),
    convert_pack(types(T::f16x2), types(T::e4m3x2, T::e5m2x2))
        .select(mods(M::rn))
        .allow(mods(M::relu))
        .needs("cvt_fp8"),
    // stochastic rounding with random bits (.rs): sm_100a and sm_103a, PTX 8.7
    convert_pack(types(T::f16x2, T::bf16x2), types(T::f32), 3)
        .select(mods(M::rs))
        .allow(mods(M::relu, M::satfinite))
        .sources({Operand::reg, Operand::reg, Operand::random_bits})
        .needs("cvt_rs"),
    convert_pack(types(T::e4m3x4, T::e5m2x4, T::e2m3x4, T::e3m2x4, T::e2m1x4), types(T::f32), 2)
        .select(mods(M::rs))
        .require(mods(M::satfinite))
        .allow(mods(M::relu))
        .sources({Operand::vector4, Operand::random_bits})
        .needs("cvt_rs"),
    // FP6, FP4 and UE8M0 pairs: architecture- and family-specific targets (sm_100a, sm_120f, ...)
    convert_pack(types(T::e2m3x2, T::e3m2x2), types(T::f32), 2)
        .select(mods(M::rn))
        .require(mods(M::satfinite))
        .allow(mods(M::relu))
        .needs("cvt_fp6"),
    convert_pack(types(T::f16x2), types(T::e2m3x2, T::e3m2x2))
        .select(mods(M::rn))
        .allow(mods(M::relu))
        .needs("cvt_fp6"),
    convert_pack(types(T::e2m1x2), types(T::f32), 2)
        .select(mods(M::rn))
        .require(mods(M::satfinite))
        .allow(mods(M::relu))
        .needs("cvt_fp4"),
    convert_pack(types(T::f16x2), types(T::e2m1x2)).select(mods(M::rn)).allow(mods(M::relu)).needs("cvt_fp4"),
    convert_pack(types(T::e2m1x2), types(T::f16x2))
        .select(mods(M::rn))
        .require(mods(M::satfinite))
        .allow(mods(M::relu))
        .needs("cvt_fp4"),
    convert_pack(types(T::ue8m0x2), types(T::f32), 2)
        .select(mods(M::rz, M::rp))
        .allow(mods(M::satfinite))
        .needs("cvt_ue8m0"),
    convert_pack(types(T::ue8m0x2), types(T::bf16x2))
        .select(mods(M::rz, M::rp))
        .allow(mods(M::satfinite))
        .needs("cvt_ue8m0"),
    convert_pack(types(T::bf16x2), types(T::ue8m0x2)).select(mods(M::rn)).needs("cvt_ue8m0"),
    // ---- mov's pack and unpack forms: a vector of 2 or 4 elements that split
    // the type's width, the first element in the lowest bits (PTX ISA, mov).
    // The other movs are not the table's (OpInfo::vector_forms_only).
    moving(types(T::b16, T::b32, T::b64, T::b128)).sources({Operand::vector2}),
    moving(types(T::b32, T::b64, T::b128)).sources({Operand::vector4}),
    moving(types(T::b16, T::b32, T::b64, T::b128)).dest(Operand::vector2),
    moving(types(T::b32, T::b64, T::b128)).dest(Operand::vector4),
    // cvt.pack.sat (ptxas 13.0 reads cvt.pack as the name: .pack leads)
    packing(types(T::u16, T::s16), 2).needs("cvt_pack"),
    packing(types(T::u8, T::s8), 3).third_type(types(T::b32)).needs("cvt_pack"),
    packing(types(T::u4, T::s4, T::u2, T::s2), 3).third_type(types(T::b32)).needs("cvt_pack_subbyte"),
};

}  // namespace

const FormRow* rows_begin() { return kRows; }
const FormRow* rows_end() { return kRows + sizeof(kRows) / sizeof(kRows[0]); }

namespace {
// cvt's .u8/.s8 operands live in 16-bit registers (ptxas accepts .b16 there).
unsigned register_bits(Type t) { return std::max(16u, static_cast<unsigned>(info(t).bits)); }
}  // namespace

unsigned dest_bits(const Instr& in) {
  const unsigned w = info(in.type).bits;
  if (in.row->shape == Shape::pack_int) return 32;  // "Destination d is an unsigned 32-bit integer"
  if (in.row->shape == Shape::pack) return w / elements(in.row->dest);
  if (in.row->shape == Shape::convert && !is_float(in.type)) return register_bits(in.type);
  if (in.row->dest == Operand::pred || in.row->dest == Operand::pred_pair) return 1;
  switch (in.row->shape) {
    case Shape::wide: return 2 * w;
    case Shape::count:
    case Shape::word:
    case Shape::mixed: return 32;
    default: return w;
  }
}

unsigned src_position(const Instr& in, unsigned index) {
  unsigned position = 0;
  for (unsigned first = 0; position + 1 < in.row->num_src; ++position) {
    first += elements(in.row->src[position]);
    if (index < first) break;
  }
  return position;
}

unsigned src_bits(const Instr& in, unsigned value) {
  const unsigned w = info(in.type).bits;
  const unsigned index = src_position(in, value);
  const Operand kind = in.row->src[index];
  if (kind == Operand::pred) return 1;
  if (kind == Operand::random_bits) return 32;
  switch (in.row->shape) {
    case Shape::same:
    case Shape::count: return w;
    case Shape::wide: return index == 2 ? 2 * w : w;
    case Shape::bfe: return index == 0 ? w : 32;
    case Shape::bfi: return index <= 1 ? w : 32;
    case Shape::mixed: return index + 1 == in.num_src ? 32 : info(in.type2).bits;
    case Shape::word: return 32;
    case Shape::shift: return index == 1 ? 32 : w;
    case Shape::convert: return is_float(in.type2) ? info(in.type2).bits : register_bits(in.type2);
    case Shape::select: return index == 2 ? info(in.type2).bits : w;
    case Shape::pack_int: return index == 2 ? info(in.type3).bits : info(in.type2).bits;
    case Shape::pack: return w / elements(kind);
  }
  return w;
}

unsigned num_dests(const Instr& in) {
  if (in.row->dest == Operand::reg_pred) return 2;
  if (is_vector(in.row->dest)) return elements(in.row->dest);
  if (in.row->dest != Operand::pred_pair) return 1;
  return (in.mods & kBoolMods) || info(in.type).lanes == 2 ? 2 : 1;
}

bool writes_carry(const Instr& in) { return in.has(Mod::cc); }
bool reads_carry(const Instr& in) { return in.row->carry_in; }

}  // namespace ptxfu::isa
