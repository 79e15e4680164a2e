// Every modifier the instruction table allows must change something: for
// each legal form with modifier m whose form without m is also legal, some
// input (special values of the lane format or random) gives a different
// result or carry. A modifier the executors silently ignore fails here.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "exec/execute.h"
#include "isa/forms.h"
#include "isa/table.h"

namespace ptxfu {
namespace {

// Values that exercise modifiers: zeros, ones, subnormals, infinities,
// NaNs, the OOB-NaN (0x7ff7), extremes, for a lane of `bits`.
std::vector<uint64_t> lane_specials(unsigned bits, bool floating) {
  if (!floating) {
    const uint64_t m = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const uint64_t top = uint64_t{1} << (bits - 1);
    return {0, 1, 2, 3, m, m - 1, top, top - 1, top + 1, 0x55555555 & m, 0x80 & m, 0xff & m, 37, 255};
  }
  switch (bits) {
    case 16:
      return {0x0000,
              0x8000,
              0x3c00,
              0xbc00,
              0x0001,
              0x8001,
              0x03ff,
              0x7c00,
              0xfc00,
              0x7e00,
              0x7ff7,
              0xfff7,
              0x7bff,
              0x3800,
              0xc000,
              0x3f80,
              0xbf80,
              0x0080,
              0x7f80,
              0x7fc0,
              0x4000,
              0x3555,
              0xcc80 /* f16 -18: 2^x subnormal */,
              0xc302 /* bf16 -130 */};
    case 32:
      return {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x80000001,
              0x007fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f7fffff, 0x3f000000,
              0xc0000000, 0x3eaaaaab, 0x00800000, 0xc3020000 /* -130: 2^x subnormal */};
    default:
      return {0,
              0x8000000000000000,
              0x3ff0000000000000,
              0xbff0000000000000,
              1,
              0x8000000000000001,
              0x000fffffffffffff,
              0x7ff0000000000000,
              0xfff0000000000000,
              0x7ff8000000000000,
              0x3fe0000000000000,
              0xc000000000000000,
              0x3800000000000000,
              0xb800000000000000 /* +-2^-127: f32 subnormals */};
  }
}

std::vector<uint64_t> operand_values(unsigned bits, unsigned lanes, bool floating, std::mt19937_64& rng) {
  const unsigned lw = bits / lanes;
  const auto specials = lane_specials(lw, floating);
  std::vector<uint64_t> out;
  for (uint64_t s : specials) {
    uint64_t v = 0;
    for (unsigned l = 0; l < lanes; ++l) v |= s << (l * lw);
    out.push_back(v);
  }
  for (int i = 0; i < 24; ++i) out.push_back(bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1));
  return out;
}

// Pairs where the modifier cannot change any result, by mathematics.
bool cannot_matter(const isa::Instr& in, isa::Mod m) {
  // cos(+-subnormal) = cos(+-0) = 1, and cos never returns a subnormal.
  if (in.op == isa::Op::cos && m == isa::Mod::ftz) return true;
  // .sat already turns the NaN an OOB-NaN operand produces into +0.
  if (m == isa::Mod::oob && in.has(isa::Mod::sat)) return true;
  // .num and .nan ask only whether an operand is NaN; flushing cannot change that.
  if (m == isa::Mod::ftz && (in.cmp == isa::Cmp::num || in.cmp == isa::Cmp::nan)) return true;
  if (in.op == isa::Op::cvt) {
    // A rounding mode on a conversion that is exact (bf16 to f32 or f64).
    if ((isa::bit(m) & isa::kRoundingMods) && in.type2 == isa::Type::bf16 &&
        (in.type == isa::Type::f32 || in.type == isa::Type::f64))
      return true;
    const bool from_float = isa::is_float(in.type2), to_float = isa::is_float(in.type);
    // float -> int saturates with or without .sat (PTX ISA, cvt).
    if (m == isa::Mod::sat && from_float && !to_float) return true;
    if (m == isa::Mod::ftz) {
      // .ftz flushes .f32 operands and results only: an integer or f16 source gives no f32 subnormal.
      if (in.type2 != isa::Type::f32 && in.type2 != isa::Type::bf16 && in.type2 != isa::Type::f64) return true;
      // An f32 subnormal rounds to zero under .rni/.rzi, and to an f16 zero under .rn/.rz.
      if (in.has(isa::Mod::rni) || in.has(isa::Mod::rzi)) return true;
      if (in.type == isa::Type::f16 && (in.has(isa::Mod::rn) || in.has(isa::Mod::rz))) return true;
      // Rounding down only moves negative subnormals, which .sat or an unsigned destination sends to 0.
      const bool negatives_to_zero = in.has(isa::Mod::sat) || isa::info(in.type).cls == isa::TypeClass::unsigned_int;
      if ((in.has(isa::Mod::rmi) || (in.has(isa::Mod::rm) && in.type == isa::Type::f16)) && negatives_to_zero)
        return true;
    }
  }
  return false;
}

TEST(ModifierEffect, EveryAllowedModifierChangesSomeResult) {
  // All legal forms, by (row, op, types) then modifier set.
  std::map<std::tuple<const isa::FormRow*, isa::Op, isa::Type, isa::Type, isa::Cmp>, std::set<isa::ModSet>> legal;
  isa::for_each_legal_form([&](const isa::Instr& in) {
    legal[{in.row, in.op, in.type, in.type2, in.cmp}].insert(in.mods);
  });

  std::mt19937_64 rng(5);
  size_t pairs = 0;
  std::vector<std::string> ignored;
  for (const auto& [key, sets] : legal) {
    const auto& [row, op, type, type2, cmp] = key;
    for (isa::ModSet with : sets) {
      for (unsigned i = 0; i < static_cast<unsigned>(isa::Mod::kCount); ++i) {
        const isa::Mod m = static_cast<isa::Mod>(i);
        if (!(with & isa::bit(m)) || !sets.count(with & ~isa::bit(m))) continue;
        if (m == isa::Mod::rn) continue;  // the default rounding: no change by definition
        const auto num_values = static_cast<uint8_t>(row->num_values());
        const isa::Instr a{op, type, type2, with, cmp, num_values, row};
        if (cannot_matter(a, m)) continue;
        const isa::Instr b{op, type, type2, with & ~isa::bit(m), cmp, num_values, row};
        std::vector<std::vector<uint64_t>> values;
        for (unsigned k = 0; k < a.num_src; ++k) {
          const unsigned pos = isa::src_position(a, k);
          const isa::Operand kind = row->src[pos];
          // set's sources and slct's c are of the second type
          const bool second = row->shape == isa::Shape::convert || (row->shape == isa::Shape::select && pos == 2);
          const isa::Type t = second ? type2 : type;
          const bool value_operand = kind == isa::Operand::reg || isa::is_vector(kind);
          const bool floating = isa::info(t).cls == isa::TypeClass::floating && value_operand;
          // A predicate, a random-bits or mixed-precision source is one lane whatever the type.
          const bool one_lane = row->shape == isa::Shape::mixed || !value_operand;
          values.push_back(operand_values(isa::src_bits(a, k), one_lane ? 1 : isa::info(t).lanes, floating, rng));
        }
        bool differs = false;
        for (int trial = 0; trial < 4000 && !differs; ++trial) {
          uint64_t src[isa::kMaxSources] = {};
          for (unsigned k = 0; k < a.num_src; ++k) src[k] = values[k][rng() % values[k].size()];
          for (bool cin : {false, true}) {
            const exec::Result ra = exec::execute(a, src, cin), rb = exec::execute(b, src, cin);
            differs |= ra.value != rb.value || ra.second != rb.second ||
                       (isa::writes_carry(a) && ra.carry_out != rb.carry_out) ||
                       isa::writes_carry(a) != isa::writes_carry(b);
          }
        }
        ++pairs;
        if (!differs) ignored.push_back(isa::spell(a) + " vs " + isa::spell(b));
      }
    }
  }
  std::cout << "modifier pairs checked: " << pairs << "\n";
  for (const auto& s : ignored) ADD_FAILURE() << "modifier has no effect: " << s;
  EXPECT_GT(pairs, 300u);
}

}  // namespace
}  // namespace ptxfu
