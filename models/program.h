// A straight-line PTX program for the simulator: .reg declarations, mov of
// immediates / %laneid / %tid.x / registers, and instructions of the
// arithmetic table. Loaded once, run by every warp.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/decode.h"
#include "isa/instr.h"

namespace ptxfu::models {

class ProgramError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RegisterInfo {
  std::string name;
  unsigned bits;
};

struct SourceOperand {
  enum class Kind : uint8_t { reg, imm, lane_id, thread_id } kind = Kind::imm;
  uint32_t reg = 0;    // index into Program::registers for Kind::reg
  uint64_t value = 0;  // immediate bits, already in the operand's width
};

// What a program instruction does, and so which path runs it. Every path
// switches on it; none infers it from other fields. Branches, memory and
// warp-wide operations become kinds of their own when the model runs them.
enum class InstrKind : uint8_t {
  arithmetic,  // a form of the instruction table, on the unit its Pipe names, through the exact core
  mov,         // a register, immediate or special register copied on the ALU
};

struct ProgramInstr {
  InstrKind kind = InstrKind::arithmetic;
  isa::Instr instr;           // arithmetic: the decoded form
  unsigned mov_bits = 0;      // mov: the width moved
  bool reads_carry = false;   // the carry flag (CC.CF) is a source
  bool writes_carry = false;  // ... and a destination
  uint32_t dest = 0;
  SourceOperand src[4];
  unsigned num_src = 0;
  std::string text;  // the statement as written, for traces
  unsigned line = 0;
};

struct Program {
  std::string name;
  std::vector<RegisterInfo> registers;
  std::vector<ProgramInstr> code;
};

// Loads PTX text; errors name file:line:col. `caps` decides legality.
Program load_program(const std::string& text, const std::string& name, const isa::Capabilities& caps);
Program load_program_file(const std::string& path, const isa::Capabilities& caps);

}  // namespace ptxfu::models
