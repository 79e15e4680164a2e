// Executes one decoded instruction on one lane's operands (bit patterns).
// The domain executors each claim the instructions of their area.
#pragma once
#include <cstdint>

#include "isa/instr.h"

namespace ptxfu::exec {

struct Result {
  uint64_t value = 0;      // destination bits, zero-extended to 64
  bool carry_out = false;  // meaningful for forms that write CC (.cc)
};

// src holds instr.num_src operands, each zero-extended to 64 bits; carry_in is
// read by addc/subc/madc. Precondition: instr is legal (isa::check passed).
Result execute(const isa::Instr& instr, const uint64_t* src, bool carry_in);

// Each returns false when the instruction is not of its area.
bool execute_float(const isa::Instr& instr, const uint64_t* src, Result& out);   // exec_float.cc
bool execute_int(const isa::Instr& instr, const uint64_t* src, bool carry_in,
                 Result& out);                                                  // exec_int.cc
bool execute_approx(const isa::Instr& instr, const uint64_t* src, Result& out);  // exec_approx.cc

}  // namespace ptxfu::exec
