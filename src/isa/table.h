// The instruction table: one row per form family. The parser, the legality
// checker, the executors and the models' dispatch all read these rows.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "isa/features.h"
#include "isa/instr.h"

namespace ptxfu::isa {

using OpMask = uint64_t;
using TypeMask = uint32_t;
constexpr OpMask op_bit(Op o) { return OpMask{1} << static_cast<unsigned>(o); }
constexpr TypeMask type_bit(Type t) { return TypeMask{1} << static_cast<unsigned>(t); }

inline constexpr std::string_view kOpNames[] = {
    "add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min", "max",
    "popc", "clz", "bfind", "brev", "bfe", "bfi", "fns", "bmsk", "szext", "dp4a", "dp2a",
    "addc", "subc", "madc", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh",
};
static_assert(sizeof(kOpNames) / sizeof(kOpNames[0]) == static_cast<size_t>(Op::kCount));
constexpr std::string_view name(Op o) { return kOpNames[static_cast<size_t>(o)]; }
constexpr std::string_view name(Type t) { return info(t).name; }
constexpr std::string_view name(Mod m) { return kModNames[static_cast<size_t>(m)]; }

// The functional unit class that executes a form; the models map each class
// to a configured pipe. `multi` forms are instruction sequences on hardware.
enum class Pipe : uint8_t { fma, alu, fp64, mufu, multi, kCount };
inline constexpr std::string_view kPipeNames[] = {"fma", "alu", "fp64", "mufu", "multi"};
constexpr std::string_view name(Pipe p) { return kPipeNames[static_cast<size_t>(p)]; }

// Operand widths follow from the type(s) and the shape.
enum class Shape : uint8_t {
  same,   // d and every source have the type's width
  wide,   // .wide: d (and mad's c) twice the width of a and b
  count,  // d is .u32 (popc, clz, bfind)
  bfe,    // d, a of the type; b, c are .u32
  bfi,    // f, a, b of the type; c, d are .u32
  mixed,  // d and the last source .f32; the others of type2 (.f16/.bf16)
  word,   // every operand 32 bits (dp4a, dp2a, fns, bmsk, szext)
};

struct ModFeature {
  Mod mod;
  FeatureId feature;
};

struct FormRow {
  OpMask ops;
  TypeMask types;
  TypeMask types2;      // 0: the form has a single type suffix
  uint8_t num_src;
  ModSet selector;      // non-empty: one of these must be present, and picks this row
  ModSet required;      // all of these must be present
  ModSet optional;      // further modifiers the form allows
  FeatureId feature;    // what the form itself needs from the target
  std::array<ModFeature, 2> mod_features;  // what individual modifiers need
  Shape shape;
  Pipe pipe;

  constexpr ModSet allowed() const { return selector | required | optional; }
};

struct PairRule {
  Mod a;
  Mod b;
  bool requires_b;  // true: a requires b; false: a excludes b
};

// Rules between modifiers, applied to rows that allow both.
inline constexpr PairRule kPairRules[] = {
    {Mod::abs, Mod::xorsign, true}, {Mod::xorsign, Mod::abs, true},
    {Mod::ftz, Mod::oob, false},
    {Mod::sat, Mod::relu, false},   {Mod::sat, Mod::cc, false},
    {Mod::sat, Mod::hi, true},
};

const FormRow* rows_begin();
const FormRow* rows_end();

// Operand widths in bits of a decoded instruction.
unsigned dest_bits(const Instr& in);
unsigned src_bits(const Instr& in, unsigned index);
// Whether a form writes or reads the carry flag.
bool writes_carry(const Instr& in);
bool reads_carry(const Instr& in);

}  // namespace ptxfu::isa
