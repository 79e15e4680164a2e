// The decoded form of one PTX instruction of the table: opcode, types and
// modifiers. The parser produces it, the legality checker and the executors
// read it. It carries no operand values.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "fp/format.h"
#include "isa/features.h"

namespace ptxfu::isa {

enum class Op : uint8_t {
  add,
  sub,
  mul,
  mad,
  fma,
  div,
  rem,
  abs,
  neg,
  min,
  max,
  popc,
  clz,
  bfind,
  brev,
  bfe,
  bfi,
  fns,
  bmsk,
  szext,
  dp4a,
  dp2a,
  addc,
  subc,
  madc,
  rcp,
  sqrt,
  rsqrt,
  sin,
  cos,
  lg2,
  ex2,
  tanh,
  mul24,
  mad24,
  sad,
  copysign,
  testp,
  setp,
  set,
  selp,
  slct,
  and_,
  or_,
  xor_,
  not_,
  cnot,
  lop3,
  shl,
  shr,
  shf,
  prmt,  // C++ reserves and/or/xor/not
  cvt,
  mov,
  kCount
};

struct OpInfo {
  Op op;
  std::string_view name;
  // The table holds only this opcode's forms with a vector operand (mov's
  // pack and unpack); its other statements are among PTX's other
  // instructions (isa/opcodes.h), checked for syntax and symbols only.
  bool vector_forms_only = false;
};

// One row per opcode, in enum order (checked below).
inline constexpr OpInfo kOps[] = {
    {Op::add, "add"},   {Op::sub, "sub"},           {Op::mul, "mul"},     {Op::mad, "mad"},       {Op::fma, "fma"},
    {Op::div, "div"},   {Op::rem, "rem"},           {Op::abs, "abs"},     {Op::neg, "neg"},       {Op::min, "min"},
    {Op::max, "max"},   {Op::popc, "popc"},         {Op::clz, "clz"},     {Op::bfind, "bfind"},   {Op::brev, "brev"},
    {Op::bfe, "bfe"},   {Op::bfi, "bfi"},           {Op::fns, "fns"},     {Op::bmsk, "bmsk"},     {Op::szext, "szext"},
    {Op::dp4a, "dp4a"}, {Op::dp2a, "dp2a"},         {Op::addc, "addc"},   {Op::subc, "subc"},     {Op::madc, "madc"},
    {Op::rcp, "rcp"},   {Op::sqrt, "sqrt"},         {Op::rsqrt, "rsqrt"}, {Op::sin, "sin"},       {Op::cos, "cos"},
    {Op::lg2, "lg2"},   {Op::ex2, "ex2"},           {Op::tanh, "tanh"},   {Op::mul24, "mul24"},   {Op::mad24, "mad24"},
    {Op::sad, "sad"},   {Op::copysign, "copysign"}, {Op::testp, "testp"}, {Op::setp, "setp"},     {Op::set, "set"},
    {Op::selp, "selp"}, {Op::slct, "slct"},         {Op::and_, "and"},    {Op::or_, "or"},        {Op::xor_, "xor"},
    {Op::not_, "not"},  {Op::cnot, "cnot"},         {Op::lop3, "lop3"},   {Op::shl, "shl"},       {Op::shr, "shr"},
    {Op::shf, "shf"},   {Op::prmt, "prmt"},         {Op::cvt, "cvt"},     {Op::mov, "mov", true},
};

// Whether row i of a table keyed by an enum describes enumerator i.
template <typename Row, typename Enum, size_t N>
constexpr bool rows_in_enum_order(const Row (&rows)[N], Enum Row::*key, Enum count) {
  if (N != static_cast<size_t>(count)) return false;
  for (size_t i = 0; i < N; ++i)
    if (static_cast<size_t>(rows[i].*key) != i) return false;
  return true;
}
static_assert(rows_in_enum_order(kOps, &OpInfo::op, Op::kCount));

// What kind of value a type holds. Registers declared with a bit-size type
// (.b32) fit any operand of their width.
enum class TypeClass : uint8_t { unsigned_int, signed_int, bits, floating, predicate };

enum class Type : uint8_t {
  u8,
  u16,
  u32,
  u64,
  s8,
  s16,
  s32,
  s64,
  b8,
  b16,
  b32,
  b64,
  b128,
  u16x2,
  s16x2,
  f16,
  f16x2,
  bf16,
  bf16x2,
  f32,
  f32x2,
  f64,
  pred,
  // conversion-only formats (cvt): tf32 in a 32-bit container, and the
  // packed FP8/FP6/FP4/UE8M0 pairs and quads, one byte a value (FP4: a nibble)
  tf32,
  e4m3x2,
  e5m2x2,
  e2m3x2,
  e3m2x2,
  e2m1x2,
  ue8m0x2,
  e4m3x4,
  e5m2x4,
  e2m3x4,
  e3m2x4,
  e2m1x4,
  // cvt.pack's sub-byte destinations: no register has them
  u4,
  s4,
  u2,
  s2,
  kCount
};

// Everything ptxfu knows about a type, in one row: instruction suffixes,
// register declarations and the executors all read it.
struct TypeInfo {
  Type type;
  std::string_view name;  // without the dot
  uint8_t bits;           // register width
  uint8_t lanes;          // 2 for the x2 packs, else 1
  TypeClass cls;
  const fp::Format* format;        // a lane's float format; nullptr for the others
  FeatureId feature = kNoFeature;  // what the type itself needs from the target
};

inline constexpr TypeInfo kTypeInfo[] = {
    {Type::u8, "u8", 8, 1, TypeClass::unsigned_int, nullptr},
    {Type::u16, "u16", 16, 1, TypeClass::unsigned_int, nullptr},
    {Type::u32, "u32", 32, 1, TypeClass::unsigned_int, nullptr},
    {Type::u64, "u64", 64, 1, TypeClass::unsigned_int, nullptr},
    {Type::s8, "s8", 8, 1, TypeClass::signed_int, nullptr},
    {Type::s16, "s16", 16, 1, TypeClass::signed_int, nullptr},
    {Type::s32, "s32", 32, 1, TypeClass::signed_int, nullptr},
    {Type::s64, "s64", 64, 1, TypeClass::signed_int, nullptr},
    {Type::b8, "b8", 8, 1, TypeClass::bits, nullptr},
    {Type::b16, "b16", 16, 1, TypeClass::bits, nullptr},
    {Type::b32, "b32", 32, 1, TypeClass::bits, nullptr},
    {Type::b64, "b64", 64, 1, TypeClass::bits, nullptr},
    {Type::b128, "b128", 128, 1, TypeClass::bits, nullptr, feature("b128_type")},
    {Type::u16x2, "u16x2", 32, 2, TypeClass::unsigned_int, nullptr},
    {Type::s16x2, "s16x2", 32, 2, TypeClass::signed_int, nullptr},
    {Type::f16, "f16", 16, 1, TypeClass::floating, &fp::kF16},
    {Type::f16x2, "f16x2", 32, 2, TypeClass::floating, &fp::kF16},
    {Type::bf16, "bf16", 16, 1, TypeClass::floating, &fp::kBF16, feature("bf16_type")},
    {Type::bf16x2, "bf16x2", 32, 2, TypeClass::floating, &fp::kBF16, feature("bf16_type")},
    {Type::f32, "f32", 32, 1, TypeClass::floating, &fp::kF32},
    {Type::f32x2, "f32x2", 64, 2, TypeClass::floating, &fp::kF32},
    {Type::f64, "f64", 64, 1, TypeClass::floating, &fp::kF64},
    {Type::pred, "pred", 1, 1, TypeClass::predicate, nullptr},
    {Type::tf32, "tf32", 32, 1, TypeClass::floating, &fp::kTF32, feature("tf32_type")},
    {Type::e4m3x2, "e4m3x2", 16, 2, TypeClass::floating, &fp::kE4M3},
    {Type::e5m2x2, "e5m2x2", 16, 2, TypeClass::floating, &fp::kE5M2},
    {Type::e2m3x2, "e2m3x2", 16, 2, TypeClass::floating, &fp::kE2M3},
    {Type::e3m2x2, "e3m2x2", 16, 2, TypeClass::floating, &fp::kE3M2},
    {Type::e2m1x2, "e2m1x2", 8, 2, TypeClass::floating, &fp::kE2M1},
    {Type::ue8m0x2, "ue8m0x2", 16, 2, TypeClass::floating, &fp::kUE8M0},
    {Type::e4m3x4, "e4m3x4", 32, 4, TypeClass::floating, &fp::kE4M3},
    {Type::e5m2x4, "e5m2x4", 32, 4, TypeClass::floating, &fp::kE5M2},
    {Type::e2m3x4, "e2m3x4", 32, 4, TypeClass::floating, &fp::kE2M3},
    {Type::e3m2x4, "e3m2x4", 32, 4, TypeClass::floating, &fp::kE3M2},
    {Type::e2m1x4, "e2m1x4", 16, 4, TypeClass::floating, &fp::kE2M1},
    {Type::u4, "u4", 4, 1, TypeClass::unsigned_int, nullptr},
    {Type::s4, "s4", 4, 1, TypeClass::signed_int, nullptr},
    {Type::u2, "u2", 2, 1, TypeClass::unsigned_int, nullptr, feature("int2_type")},
    {Type::s2, "s2", 2, 1, TypeClass::signed_int, nullptr, feature("int2_type")},
};
static_assert(rows_in_enum_order(kTypeInfo, &TypeInfo::type, Type::kCount));

constexpr const TypeInfo& info(Type t) { return kTypeInfo[static_cast<size_t>(t)]; }
constexpr unsigned lane_bits(Type t) { return info(t).bits / info(t).lanes; }
constexpr bool is_float(Type t) { return info(t).cls == TypeClass::floating; }
// The type a suffix or declaration names ("f16x2", without the dot).
constexpr std::optional<Type> find_type(std::string_view name) {
  for (const TypeInfo& t : kTypeInfo)
    if (t.name == name) return t.type;
  return std::nullopt;
}

// Comparisons (setp, set): a field of their own, because .lo and .hi are
// also mul's modes. Unsigned-only: lo ls hi hs; float-only: the unordered
// forms, num and nan.
enum class Cmp : uint8_t {
  none,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  lo,
  ls,
  hi,
  hs,
  equ,
  neu,
  ltu,
  leu,
  gtu,
  geu,
  num,
  nan,
  kCount
};
inline constexpr std::string_view kCmpNames[] = {
    "",   "eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
    "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};
static_assert(sizeof(kCmpNames) / sizeof(kCmpNames[0]) == static_cast<size_t>(Cmp::kCount));
using CmpSet = uint32_t;
constexpr CmpSet cmp_bit(Cmp c) { return CmpSet{1} << static_cast<unsigned>(c); }

// Dotted modifiers. Rounding (rn rz rm rp, and cvt's rni rzi rmi rpi rna
// rs), mode (hi lo wide), the testp classes and prmt's modes are groups of
// which at most one may appear.
// The enum order is the order ptxfu spells modifiers in (PTX accepts any).
enum class Mod : uint8_t {
  l,
  r,  // shf direction: ptxas reads shf.l/shf.r as the name
  hi,
  lo,
  wide,
  rn,
  rz,
  rm,
  rp,
  rni,
  rzi,
  rmi,
  rpi,
  rna,
  rs,  // rounding; cvt's integer, ties-away and stochastic
  approx,
  full,
  and_,
  or_,
  xor_,  // setp/set/lop3 boolean operation
  ftz,
  oob,
  relu,
  sat,
  satfinite,
  nan,
  xorsign,
  abs,
  cc,
  shiftamt,
  clamp,
  wrap,
  finite,
  infinite,
  number,
  notanumber,
  normal,
  subnormal,
  pack,  // cvt.pack
  f4e,
  b4e,
  rc8,
  ecl,
  ecr,
  rc16,  // prmt modes
  kCount
};

inline constexpr std::string_view kModNames[] = {
    "l",      "r",         "hi",       "lo",    "wide", "rn",     "rz",        "rm",     "rp",
    "rni",    "rzi",       "rmi",      "rpi",   "rna",  "rs",     "approx",    "full",   "and",
    "or",     "xor",       "ftz",      "oob",   "relu", "sat",    "satfinite", "NaN",    "xorsign",
    "abs",    "cc",        "shiftamt", "clamp", "wrap", "finite", "infinite",  "number", "notanumber",
    "normal", "subnormal", "pack",     "f4e",   "b4e",  "rc8",    "ecl",       "ecr",    "rc16",
};
static_assert(sizeof(kModNames) / sizeof(kModNames[0]) == static_cast<size_t>(Mod::kCount));

using ModSet = uint64_t;
static_assert(static_cast<size_t>(Mod::kCount) <= 64);
constexpr ModSet bit(Mod m) { return ModSet{1} << static_cast<unsigned>(m); }
constexpr ModSet kRoundingMods = bit(Mod::rn) | bit(Mod::rz) | bit(Mod::rm) | bit(Mod::rp);
constexpr ModSet kModeMods = bit(Mod::hi) | bit(Mod::lo) | bit(Mod::wide);
constexpr ModSet kIntRoundingMods = bit(Mod::rni) | bit(Mod::rzi) | bit(Mod::rmi) | bit(Mod::rpi);
// Part of the name where a row selects or requires them (shf.l, cvt.pack): they lead.
constexpr ModSet kNameMods = bit(Mod::l) | bit(Mod::r) | bit(Mod::pack);
constexpr ModSet kBoolMods = bit(Mod::and_) | bit(Mod::or_) | bit(Mod::xor_);
constexpr ModSet kPrmtMods =
    bit(Mod::f4e) | bit(Mod::b4e) | bit(Mod::rc8) | bit(Mod::ecl) | bit(Mod::ecr) | bit(Mod::rc16);
constexpr ModSet kTestpMods = bit(Mod::finite) | bit(Mod::infinite) | bit(Mod::number) | bit(Mod::notanumber) |
                              bit(Mod::normal) | bit(Mod::subnormal);

struct FormRow;  // isa/table.h

// A decoded instruction. `type` is the destination/operation type as PTX
// spells it first; `type2` is the second type suffix where the form has one
// (mixed precision .f32.f16: the source type; dp4a/dp2a: b's type) and
// otherwise equals `type`; `type3` the third (cvt.pack's c), else kCount.
struct Instr {
  Op op = Op::add;
  Type type = Type::u32;
  Type type2 = Type::u32;
  ModSet mods = 0;
  Cmp cmp = Cmp::none;  // setp/set: the comparison
  uint8_t num_src = 0;  // source values (cc= not counted): a vector {a, b, e, f} is four
  const FormRow* row = nullptr;
  Type type3 = Type::kCount;

  constexpr bool has(Mod m) const { return (mods & bit(m)) != 0; }
};

}  // namespace ptxfu::isa
