// The decoded form of one PTX arithmetic instruction: opcode, types and
// modifiers. The parser produces it, the legality checker and the executors
// read it. It carries no operand values.
#pragma once
#include <cstdint>
#include <string_view>

namespace ptxfu::isa {

enum class Op : uint8_t {
  add, sub, mul, mad, fma, div, rem, abs, neg, min, max,
  popc, clz, bfind, brev, bfe, bfi, fns, bmsk, szext, dp4a, dp2a,
  addc, subc, madc,
  rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh,
  kCount
};

enum class TypeClass : uint8_t { unsigned_int, signed_int, bits, floating };

enum class Type : uint8_t {
  u16, u32, u64, s16, s32, s64, b16, b32, b64,
  u16x2, s16x2,
  f16, f16x2, bf16, bf16x2, f32, f32x2, f64,
  kCount
};

struct TypeInfo {
  std::string_view name;  // without the dot
  uint8_t bits;           // register width
  uint8_t lanes;          // 2 for the x2 packs, else 1
  TypeClass cls;
};

// One row per type; indexed by Type.
inline constexpr TypeInfo kTypeInfo[] = {
    {"u16", 16, 1, TypeClass::unsigned_int},  {"u32", 32, 1, TypeClass::unsigned_int},
    {"u64", 64, 1, TypeClass::unsigned_int},  {"s16", 16, 1, TypeClass::signed_int},
    {"s32", 32, 1, TypeClass::signed_int},    {"s64", 64, 1, TypeClass::signed_int},
    {"b16", 16, 1, TypeClass::bits},          {"b32", 32, 1, TypeClass::bits},
    {"b64", 64, 1, TypeClass::bits},          {"u16x2", 32, 2, TypeClass::unsigned_int},
    {"s16x2", 32, 2, TypeClass::signed_int},  {"f16", 16, 1, TypeClass::floating},
    {"f16x2", 32, 2, TypeClass::floating},    {"bf16", 16, 1, TypeClass::floating},
    {"bf16x2", 32, 2, TypeClass::floating},   {"f32", 32, 1, TypeClass::floating},
    {"f32x2", 64, 2, TypeClass::floating},    {"f64", 64, 1, TypeClass::floating},
};
static_assert(sizeof(kTypeInfo) / sizeof(kTypeInfo[0]) == static_cast<size_t>(Type::kCount));

constexpr const TypeInfo& info(Type t) { return kTypeInfo[static_cast<size_t>(t)]; }
constexpr unsigned lane_bits(Type t) { return info(t).bits / info(t).lanes; }

// Dotted modifiers. Rounding (rn rz rm rp) and mode (hi lo wide) are groups
// of which at most one may appear.
// The enum order is the order ptxfu spells modifiers in (PTX accepts any).
enum class Mod : uint8_t {
  hi, lo, wide, rn, rz, rm, rp, approx, full,
  ftz, oob, relu, sat, nan, xorsign, abs,
  cc, shiftamt, clamp, wrap,
  kCount
};

inline constexpr std::string_view kModNames[] = {
    "hi", "lo", "wide", "rn", "rz", "rm", "rp", "approx", "full", "ftz", "oob",
    "relu", "sat", "NaN", "xorsign", "abs", "cc", "shiftamt", "clamp", "wrap",
};
static_assert(sizeof(kModNames) / sizeof(kModNames[0]) == static_cast<size_t>(Mod::kCount));

using ModSet = uint32_t;
constexpr ModSet bit(Mod m) { return ModSet{1} << static_cast<unsigned>(m); }
constexpr ModSet kRoundingMods = bit(Mod::rn) | bit(Mod::rz) | bit(Mod::rm) | bit(Mod::rp);
constexpr ModSet kModeMods = bit(Mod::hi) | bit(Mod::lo) | bit(Mod::wide);

struct FormRow;  // isa/table.h

// A decoded instruction. `type` is the destination/operation type as PTX
// spells it first; `type2` is the second type suffix where the form has one
// (mixed precision .f32.f16: the source type; dp4a/dp2a: b's type) and
// otherwise equals `type`.
struct Instr {
  Op op = Op::add;
  Type type = Type::u32;
  Type type2 = Type::u32;
  ModSet mods = 0;
  uint8_t num_src = 0;  // source operands (cc= not counted)
  const FormRow* row = nullptr;

  constexpr bool has(Mod m) const { return (mods & bit(m)) != 0; }
};

}  // namespace ptxfu::isa
