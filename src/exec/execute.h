// Executes one decoded instruction on one lane's operands (bit patterns).
// The domain executors each claim the instructions of their area.
#pragma once
#include <cstddef>
#include <cstdint>

#include "isa/instr.h"

namespace ptxfu::exec {

struct Result {
  uint64_t value = 0;      // destination bits, zero-extended to 64
  bool carry_out = false;  // meaningful for forms that write CC (.cc)
  uint64_t second = 0;     // a second destination: q of setp's p|q
  uint64_t high = 0;       // bits 127:64 of a 128-bit destination (mov.b128)
};

// The elements of a vector destination (mov's unpack) lie in value/high as
// PTX's mov lays them out: element i is bits [i*bits, (i+1)*bits), the
// first element lowest. Returns element `index`.
uint64_t element(const Result& r, unsigned index, unsigned bits);

// src holds instr.num_src source values (a vector operand {a, b, e, f} gives
// one per element, in order), each zero-extended to 64 bits; a 128-bit value
// takes two words, bits 63:0 then 127:64. carry_in is read by
// addc/subc/madc. Precondition: instr is legal (isa::check passed).
Result execute(const isa::Instr& instr, const uint64_t* src, bool carry_in);

// The lanes of one warp instruction (at most kMaxLanes).
inline constexpr unsigned kMaxLanes = 32;

// A warp instruction's sources: src[k][lane] is operand k of a lane (by
// operand, the lanes contiguous: the array forms' layout). Each pointer is
// to `lanes` values; the kernel executor points them at its registers.
using LaneSources = const uint64_t* const*;

// The active lanes of one warp instruction; results and carries are per
// lane, written for active lanes only. The executor is chosen once for all
// lanes (the models' hot path).
void execute_lanes(const isa::Instr& instr, LaneSources src, unsigned lanes, uint32_t active, uint32_t carry_in,
                   uint64_t* results, uint32_t& carry_out);

// The rounding mode a form names (.rn .rz .rm .rp); .rn where it names none.
fp::Rounding rounding_of(const isa::Instr& instr);

// Whether a form belongs to the approximation unit (its row's executor): the
// transcendentals and every .approx / .full form.
bool is_approx_form(const isa::Instr& instr);

// Each returns false when the instruction is not of its area.
bool execute_float(const isa::Instr& instr, const uint64_t* src, Result& out);  // exec_float.cc
// The same for the active lanes of a warp, the form decoded once.
bool execute_float_lanes(const isa::Instr& instr, LaneSources src, unsigned lanes, uint32_t active,
                         uint64_t* results);  // exec_float.cc
// The same for `n` elements of operand arrays (element i of source k at
// src[k][i * strides[k]]): the library's array evaluation.
bool execute_float_many(const isa::Instr& instr, size_t n, const uint64_t* const* src, const ptrdiff_t* strides,
                        uint64_t* results);  // exec_float.cc
bool execute_int(const isa::Instr& instr, const uint64_t* src, bool carry_in,
                 Result& out);  // exec_int.cc
// The common integer forms for the active lanes of a warp (false: not one of
// them; the caller goes lane by lane).
bool execute_int_lanes(const isa::Instr& instr, LaneSources src, unsigned lanes, uint32_t active,
                       uint64_t* results);                                        // exec_int.cc
bool execute_approx(const isa::Instr& instr, const uint64_t* src, Result& out);   // exec_approx.cc
bool execute_compare(const isa::Instr& instr, const uint64_t* src, Result& out);  // exec_compare.cc
// setp with one destination on one-lane types, and selp, for the active
// lanes of a warp (false: another compare form; the caller goes lane by lane).
bool execute_compare_lanes(const isa::Instr& instr, LaneSources src, unsigned lanes, uint32_t active,
                           uint64_t* results);                                    // exec_compare.cc
bool execute_convert(const isa::Instr& instr, const uint64_t* src, Result& out);  // exec_convert.cc
bool execute_move(const isa::Instr& instr, const uint64_t* src, Result& out);     // exec_move.cc

}  // namespace ptxfu::exec
