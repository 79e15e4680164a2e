// The instruction table: one row per form family. The parser, the legality
// checker, the executors and the models' dispatch all read these rows; a new
// family is a row (built with the helpers in table.cc) plus its executor.
#pragma once
#include <array>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "isa/features.h"
#include "isa/instr.h"

namespace ptxfu::isa {

using OpMask = uint64_t;
using TypeMask = uint64_t;
static_assert(static_cast<size_t>(Op::kCount) <= 64 && static_cast<size_t>(Type::kCount) <= 64);
constexpr OpMask op_bit(Op o) { return OpMask{1} << static_cast<unsigned>(o); }
constexpr TypeMask type_bit(Type t) { return TypeMask{1} << static_cast<unsigned>(t); }

constexpr std::string_view name(Op o) { return kOps[static_cast<size_t>(o)].name; }
constexpr std::string_view name(Type t) { return info(t).name; }
constexpr std::string_view name(Mod m) { return kModNames[static_cast<size_t>(m)]; }
constexpr std::string_view name(Cmp c) { return kCmpNames[static_cast<size_t>(c)]; }

// The functional unit class that executes a form, and so its latency class;
// the models map each class to a configured unit (models/units.h). `conv`:
// the conversions with a unit of their own on hardware (F2F, F2I, I2F, FRND;
// Mesa NAK's decoupled conversion class), while the packs (F2FP) and
// integer-to-integer conversions (I2I) run on `alu`; `fp16`: the
// half-precision arithmetic (HFMA2, HADD2, HMUL2, mixed precision), timed
// by each config's `half_precision`; `multi` forms are instruction sequences
// on hardware, timed by `multi_instruction`.
enum class Pipe : uint8_t { fma, alu, fp64, mufu, conv, fp16, multi, kCount };
inline constexpr std::string_view kPipeNames[] = {"fma", "alu", "fp64", "mufu", "conv", "fp16", "multi"};
static_assert(std::size(kPipeNames) == static_cast<size_t>(Pipe::kCount), "one name per Pipe");
constexpr std::string_view name(Pipe p) { return kPipeNames[static_cast<size_t>(p)]; }

// Which part of the core computes a form (src/exec maps each to a function).
enum class Executor : uint8_t {
  integer,   // src/int: integer and bit forms, the carry chain
  floating,  // src/fp: the correctly rounded IEEE forms
  approx,    // src/approx: MUFU and the .approx/.full forms
  compare,   // setp, set, selp, slct: comparisons and selection (exec_compare.cc)
  convert,   // cvt and its packing forms (exec_convert.cc)
  move,      // mov's pack and unpack forms (exec_move.cc)
};

// What an operand position holds. Widths of `reg` operands follow from the
// type(s) and the shape.
enum class Operand : uint8_t {
  none,
  reg,          // a register or an immediate of the operand's width
  pred,         // a .pred register (a source may be negated: !%p)
  pred_pair,    // a destination: p, or p|q (setp)
  reg_pred,     // a destination d|p: a register of the type and a predicate (lop3.and/.or)
  imm,          // an immediate only (lop3's LUT)
  vector2,      // a vector of two elements {a, b} (mov's pack and unpack)
  vector4,      // a vector of four elements {a, b, e, f} (the x4 conversions, mov)
  random_bits,  // a .b32 register and nothing else: cvt .rs's random bits (measured, ptxas 13.0)
};

// How many values an operand position holds: a vector one per element.
constexpr unsigned elements(Operand o) { return o == Operand::vector4 ? 4 : o == Operand::vector2 ? 2 : 1; }
constexpr bool is_vector(Operand o) { return o == Operand::vector2 || o == Operand::vector4; }

inline constexpr unsigned kMaxSources = 5;  // lop3.and: a, b, c, the LUT and q; cvt.rs x4: a, b, e, f, rbits

// Operand widths follow from the type(s) and the shape.
enum class Shape : uint8_t {
  same,      // d and every source have the type's width
  wide,      // .wide: d (and mad's c) twice the width of a and b
  count,     // d is .u32 (popc, clz, bfind)
  bfe,       // d, a of the type; b, c are .u32
  bfi,       // f, a, b of the type; c, d are .u32
  mixed,     // d and the last source .f32; the others of type2 (.f16/.bf16)
  word,      // every operand 32 bits (dp4a, dp2a, fns, bmsk, szext)
  shift,     // d and a of the type, the shift amount .u32 (shl, shr)
  convert,   // d of the first type, the sources of the second (cvt, set)
  select,    // d, a, b of the first type, c of the second (slct)
  pack_int,  // cvt.pack: d 32 bits, a and b of the second type, c of the third
  pack,      // mov: the scalar of the type; a vector's elements split its width evenly
};

struct ModFeature {
  Mod mod = Mod::kCount;
  FeatureId feature = kNoFeature;
};

struct FormRow {
  OpMask ops = 0;
  TypeMask types = 0;
  TypeMask types2 = 0;  // 0: the form has a single type suffix
  TypeMask types3 = 0;  // 0: the form has at most two type suffixes
  uint8_t num_src = 0;  // source operand positions (a vector is one)
  Operand dest = Operand::reg;
  std::array<Operand, kMaxSources> src{};
  CmpSet cmps = 0;                           // non-empty: the form takes one of these comparisons
  ModSet selector = 0;                       // non-empty: one of these must be present, and picks this row
  ModSet required = 0;                       // all of these must be present
  ModSet optional = 0;                       // further modifiers the form allows
  FeatureId feature = kNoFeature;            // what the form itself needs from the target
  std::array<ModFeature, 2> mod_features{};  // what individual modifiers need
  Shape shape = Shape::same;
  Pipe pipe = Pipe::alu;
  Executor executor = Executor::integer;
  bool carry_in = false;  // reads the carry flag (addc, subc, madc)

  constexpr ModSet allowed() const { return selector | required | optional; }
  // Source values: what eval takes and the executors read (a vector gives one per element).
  constexpr unsigned num_values() const {
    unsigned n = 0;
    for (unsigned i = 0; i < num_src; ++i) n += elements(src[i]);
    return n;
  }
};

struct PairRule {
  Mod a;
  Mod b;
  bool requires_b;                // true: a requires b; false: a excludes b
  std::string_view message = {};  // ptxas's words where they are not the generic ones; {} is 'op.mode'
};

// Rules between modifiers, applied to rows that allow both.
inline constexpr PairRule kPairRules[] = {
    {Mod::abs, Mod::xorsign, true}, {Mod::xorsign, Mod::abs, true},
    {Mod::ftz, Mod::oob, false},    {Mod::sat, Mod::relu, false},
    {Mod::sat, Mod::cc, false},     {Mod::sat, Mod::hi, true, "Illegal modifier '.sat' for instruction '{}'"},
};

const FormRow* rows_begin();
const FormRow* rows_end();

// Operand widths in bits of a decoded instruction: the destination (one
// element of a vector destination), and source value `index` (values count
// a vector's elements one by one, as Instr::num_src does).
unsigned dest_bits(const Instr& in);
unsigned src_bits(const Instr& in, unsigned index);
// The source operand position (0-based) that holds source value `index`.
unsigned src_position(const Instr& in, unsigned index);
// How many destinations eval prints: 2 where a form writes p and q that
// carry separate information (a boolean operation, setp on an x2 pack,
// lop3's d|p), a vector destination's elements (mov's unpack), else 1.
// Result::second holds a second predicate; a vector's elements are packed
// in Result::value/high (exec::element).
unsigned num_dests(const Instr& in);
// Whether a form writes or reads the carry flag.
bool writes_carry(const Instr& in);
bool reads_carry(const Instr& in);

}  // namespace ptxfu::isa
