#include "isa/table.h"

namespace ptxfu::isa {
namespace {

template <typename... T>
constexpr OpMask ops(T... o) { return (op_bit(o) | ...); }
template <typename... T>
constexpr TypeMask types(T... t) { return (type_bit(t) | ...); }
template <typename... T>
constexpr ModSet mods(T... m) { return (ModSet{0} | ... | bit(m)); }

constexpr ModFeature kNone{Mod::kCount, kNoFeature};
constexpr ModFeature needs(Mod m, const char* f) { return {m, feature(f)}; }
constexpr FeatureId F(const char* f) { return feature(f); }

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

// Columns: ops, types, types2, sources, selector, required, optional,
// feature, modifier features, shape, pipe. More specific rows come first.
constexpr FormRow kRows[] = {
    // ---- integer arithmetic
    {ops(O::add, O::sub), types(T::u16, T::s16), 0, 2, 0, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::alu},
    {ops(O::add, O::sub), types(T::u32, T::u64, T::s64), 0, 2, 0, 0, mods(M::cc), kNoFeature, {kNone, kNone}, S::same, P::alu},
    {ops(O::add, O::sub), types(T::s32), 0, 2, 0, 0, mods(M::sat, M::cc), kNoFeature, {kNone, kNone}, S::same, P::alu},
    // ptxas 13.0 accepts add but not sub on the 16x2 packs, whatever the spec's syntax block says.
    {ops(O::add), types(T::u16x2, T::s16x2), 0, 2, 0, 0, 0, F("int_simd16x2"), {kNone, kNone}, S::same, P::alu},
    {ops(O::addc, O::subc), types(T::u32, T::u64, T::s64), 0, 2, 0, 0, mods(M::cc), kNoFeature, {kNone, kNone}, S::same, P::alu},
    {ops(O::addc, O::subc), types(T::s32), 0, 2, 0, 0, mods(M::sat, M::cc), kNoFeature, {kNone, kNone}, S::same, P::alu},
    {ops(O::mul), kInt6, 0, 2, kHiLo, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::mul), types(T::u16, T::u32, T::s16, T::s32), 0, 2, mods(M::wide), 0, 0, kNoFeature, {kNone, kNone}, S::wide, P::fma},
    {ops(O::mad), types(T::u16, T::s16), 0, 3, kHiLo, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::mad), types(T::u32, T::u64, T::s64), 0, 3, kHiLo, 0, mods(M::cc), kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::mad), types(T::s32), 0, 3, kHiLo, 0, mods(M::sat, M::cc), kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::mad), types(T::u16, T::u32, T::s16, T::s32), 0, 3, mods(M::wide), 0, 0, kNoFeature, {kNone, kNone}, S::wide, P::fma},
    {ops(O::madc), types(T::u32, T::u64, T::s64), 0, 3, kHiLo, 0, mods(M::cc), kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::madc), types(T::s32), 0, 3, kHiLo, 0, mods(M::sat, M::cc), kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::div, O::rem), kInt6, 0, 2, 0, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::abs, O::neg), types(T::s16, T::s32, T::s64), 0, 1, 0, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::alu},
    {ops(O::min, O::max), types(T::u16, T::u32, T::u64, T::s16, T::s64), 0, 2, 0, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::alu},
    {ops(O::min, O::max), types(T::s32), 0, 2, 0, 0, mods(M::relu), kNoFeature, {needs(M::relu, "int_relu"), kNone}, S::same, P::alu},
    {ops(O::min, O::max), types(T::u16x2), 0, 2, 0, 0, 0, F("int_simd16x2"), {kNone, kNone}, S::same, P::alu},
    {ops(O::min, O::max), types(T::s16x2), 0, 2, 0, 0, mods(M::relu), F("int_simd16x2"), {kNone, kNone}, S::same, P::alu},
    // ---- bit manipulation and dot products
    {ops(O::popc, O::clz), types(T::b32, T::b64), 0, 1, 0, 0, 0, kNoFeature, {kNone, kNone}, S::count, P::mufu},
    {ops(O::bfind), types(T::u32, T::u64, T::s32, T::s64), 0, 1, 0, 0, mods(M::shiftamt), kNoFeature, {kNone, kNone}, S::count, P::mufu},
    {ops(O::brev), types(T::b32, T::b64), 0, 1, 0, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::mufu},
    {ops(O::bfe), types(T::u32, T::u64, T::s32, T::s64), 0, 3, 0, 0, 0, kNoFeature, {kNone, kNone}, S::bfe, P::alu},
    {ops(O::bfi), types(T::b32, T::b64), 0, 4, 0, 0, 0, kNoFeature, {kNone, kNone}, S::bfi, P::alu},
    {ops(O::fns), types(T::b32), 0, 3, 0, 0, 0, F("fns"), {kNone, kNone}, S::word, P::alu},
    {ops(O::bmsk), types(T::b32), 0, 2, mods(M::clamp, M::wrap), 0, 0, F("bmsk_szext"), {kNone, kNone}, S::word, P::alu},
    {ops(O::szext), kWord32, 0, 2, mods(M::clamp, M::wrap), 0, 0, F("bmsk_szext"), {kNone, kNone}, S::word, P::alu},
    {ops(O::dp4a), kWord32, kWord32, 3, 0, 0, 0, F("dp4a"), {kNone, kNone}, S::word, P::fma},
    {ops(O::dp2a), kWord32, kWord32, 3, kHiLo, 0, 0, F("dp4a"), {kNone, kNone}, S::word, P::fma},
    // ---- f32 and f64
    {ops(O::add, O::sub, O::mul), types(T::f32), 0, 2, 0, 0, kRnd | mods(M::ftz, M::sat), kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::add, O::sub, O::mul), types(T::f32x2), 0, 2, 0, 0, kRnd | mods(M::ftz), F("f32x2"), {kNone, kNone}, S::same, P::fma},
    {ops(O::add, O::sub, O::mul), types(T::f64), 0, 2, 0, 0, kRnd, kNoFeature, {kNone, kNone}, S::same, P::fp64},
    {ops(O::fma, O::mad), types(T::f32), 0, 3, kRnd, 0, mods(M::ftz, M::sat), kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::fma), types(T::f32x2), 0, 3, kRnd, 0, mods(M::ftz), F("f32x2"), {kNone, kNone}, S::same, P::fma},
    {ops(O::fma, O::mad), types(T::f64), 0, 3, kRnd, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::fp64},
    {ops(O::div), types(T::f32), 0, 2, mods(M::approx), 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::div), types(T::f32), 0, 2, mods(M::full), 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::div), types(T::f32), 0, 2, kRnd, 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::div), types(T::f64), 0, 2, kRnd, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::abs, O::neg), types(T::f32), 0, 1, 0, 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::fma},
    {ops(O::abs, O::neg), types(T::f64), 0, 1, 0, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::fp64},
    {ops(O::min, O::max), types(T::f32), 0, 2, 0, 0, mods(M::ftz, M::nan, M::xorsign, M::abs), kNoFeature, {needs(M::nan, "minmax_nan"), needs(M::xorsign, "xorsign")}, S::same, P::alu},
    {ops(O::min, O::max), types(T::f32), 0, 3, 0, 0, mods(M::ftz, M::nan, M::abs), F("minmax_3input"), {needs(M::nan, "minmax_nan"), kNone}, S::same, P::alu},
    {ops(O::min, O::max), types(T::f64), 0, 2, 0, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::fp64},
    {ops(O::rcp, O::sqrt), types(T::f32), 0, 1, mods(M::approx), 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::mufu},
    {ops(O::rcp, O::sqrt), types(T::f32), 0, 1, kRnd, 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::rcp), types(T::f64), 0, 1, mods(M::approx), mods(M::ftz), 0, kNoFeature, {kNone, kNone}, S::same, P::mufu},
    {ops(O::rcp), types(T::f64), 0, 1, kRnd, 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::sqrt), types(T::f64), 0, 1, kRnd, 0, 0, kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::rsqrt), types(T::f32), 0, 1, mods(M::approx), 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::mufu},
    {ops(O::rsqrt), types(T::f64), 0, 1, mods(M::approx), mods(M::ftz), 0, kNoFeature, {kNone, kNone}, S::same, P::mufu},
    {ops(O::rsqrt), types(T::f64), 0, 1, mods(M::approx), 0, 0, kNoFeature, {kNone, kNone}, S::same, P::multi},
    {ops(O::sin, O::cos, O::lg2, O::ex2), types(T::f32), 0, 1, mods(M::approx), 0, mods(M::ftz), kNoFeature, {kNone, kNone}, S::same, P::mufu},
    {ops(O::tanh), types(T::f32), 0, 1, mods(M::approx), 0, 0, F("tanh_f32"), {kNone, kNone}, S::same, P::mufu},
    // ---- half precision
    {ops(O::add, O::sub, O::mul), kF16, 0, 2, 0, 0, mods(M::rn, M::ftz, M::sat), F("f16_arith"), {kNone, kNone}, S::same, P::fma},
    {ops(O::add, O::sub, O::mul), kBF16, 0, 2, 0, 0, mods(M::rn), F("bf16_arith"), {kNone, kNone}, S::same, P::fma},
    {ops(O::fma), kF16, 0, 3, mods(M::rn), 0, mods(M::ftz, M::sat, M::relu, M::oob), F("f16_arith"), {needs(M::relu, "half_relu"), needs(M::oob, "oob")}, S::same, P::fma},
    {ops(O::fma), kBF16, 0, 3, mods(M::rn), 0, mods(M::relu, M::oob), F("bf16_fma"), {needs(M::oob, "oob"), kNone}, S::same, P::fma},
    {ops(O::neg), kF16, 0, 1, 0, 0, mods(M::ftz), F("f16_neg"), {kNone, kNone}, S::same, P::fma},
    {ops(O::abs), kF16, 0, 1, 0, 0, mods(M::ftz), F("f16_abs"), {kNone, kNone}, S::same, P::fma},
    {ops(O::abs, O::neg), kBF16, 0, 1, 0, 0, 0, F("bf16_absneg"), {kNone, kNone}, S::same, P::fma},
    {ops(O::min, O::max), kF16, 0, 2, 0, 0, mods(M::ftz, M::nan, M::xorsign, M::abs), F("half_minmax"), {needs(M::xorsign, "xorsign"), kNone}, S::same, P::alu},
    {ops(O::min, O::max), kBF16, 0, 2, 0, 0, mods(M::nan, M::xorsign, M::abs), F("half_minmax"), {needs(M::xorsign, "xorsign"), kNone}, S::same, P::alu},
    {ops(O::tanh), kF16, 0, 1, mods(M::approx), 0, 0, F("half_tanh"), {kNone, kNone}, S::same, P::mufu},
    {ops(O::tanh), kBF16, 0, 1, mods(M::approx), 0, 0, F("bf16_tanh"), {kNone, kNone}, S::same, P::mufu},
    {ops(O::ex2), kF16, 0, 1, mods(M::approx), 0, 0, F("half_ex2"), {kNone, kNone}, S::same, P::mufu},
    {ops(O::ex2), kBF16, 0, 1, mods(M::approx), mods(M::ftz), 0, F("bf16_ex2"), {kNone, kNone}, S::same, P::mufu},
    // ---- mixed precision: d = cvt(a) op c, d = cvt(a) * cvt(b) + c
    {ops(O::add, O::sub), types(T::f32), types(T::f16, T::bf16), 2, 0, 0, kRnd | mods(M::sat), F("mixed_precision"), {kNone, kNone}, S::mixed, P::fma},
    {ops(O::fma), types(T::f32), types(T::f16, T::bf16), 3, kRnd, 0, mods(M::sat), F("mixed_precision"), {kNone, kNone}, S::mixed, P::fma},
};

}  // namespace

const FormRow* rows_begin() { return kRows; }
const FormRow* rows_end() { return kRows + sizeof(kRows) / sizeof(kRows[0]); }

unsigned dest_bits(const Instr& in) {
  const unsigned w = info(in.type).bits;
  switch (in.row->shape) {
    case Shape::wide: return 2 * w;
    case Shape::count:
    case Shape::word:
    case Shape::mixed: return 32;
    default: return w;
  }
}

unsigned src_bits(const Instr& in, unsigned index) {
  const unsigned w = info(in.type).bits;
  switch (in.row->shape) {
    case Shape::same:
    case Shape::count: return w;
    case Shape::wide: return index == 2 ? 2 * w : w;
    case Shape::bfe: return index == 0 ? w : 32;
    case Shape::bfi: return index <= 1 ? w : 32;
    case Shape::mixed: return index + 1 == in.num_src ? 32 : info(in.type2).bits;
    case Shape::word: return 32;
  }
  return w;
}

bool writes_carry(const Instr& in) { return in.has(Mod::cc); }
bool reads_carry(const Instr& in) {
  return in.op == Op::addc || in.op == Op::subc || in.op == Op::madc;
}

}  // namespace ptxfu::isa
