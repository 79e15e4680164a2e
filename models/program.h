// A straight-line PTX program for the simulator: .reg declarations, mov
// (registers, immediates, special registers, predicates, vector pack and
// unpack) and instructions of the arithmetic table. Loaded once, run by
// every warp.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
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

// The special registers a program may read, with their values in the
// straight-line model: one CTA (of SimJob::threads threads, warps of 32) on
// SM 0 of a grid of one CTA, read in the cycle the instruction issues.
enum class Special : uint8_t {
  tid_x,  // %tid.x: warp * 32 + lane (a one-dimensional CTA)
  tid_y,  // %tid.y, %tid.z: 0
  tid_z,
  ntid_x,  // %ntid.x: the CTA's threads
  ntid_y,  // %ntid.y, %ntid.z: 1
  ntid_z,
  laneid,   // %laneid: the lane, 0..31
  warpid,   // %warpid: the warp's index in the CTA (its slot on the SM: one CTA is resident)
  nwarpid,  // %nwarpid: the config's max_warps
  smid,     // %smid: 0
  ctaid_x,  // %ctaid.*: 0
  ctaid_y,
  ctaid_z,
  nctaid_x,  // %nctaid.*: 1
  nctaid_y,
  nctaid_z,
  clock,        // %clock: the issue cycle's low 32 bits
  clock64,      // %clock64: the issue cycle
  lanemask_eq,  // %lanemask_*: the lanes equal to, below, at most, above and at least the lane
  lanemask_lt,
  lanemask_le,
  lanemask_gt,
  lanemask_ge,
};

struct SpecialRow {
  std::string_view name;
  Special reg;
  unsigned bits;
};
inline constexpr SpecialRow kSpecials[] = {
    {"%tid.x", Special::tid_x, 32},
    {"%tid.y", Special::tid_y, 32},
    {"%tid.z", Special::tid_z, 32},
    {"%ntid.x", Special::ntid_x, 32},
    {"%ntid.y", Special::ntid_y, 32},
    {"%ntid.z", Special::ntid_z, 32},
    {"%laneid", Special::laneid, 32},
    {"%warpid", Special::warpid, 32},
    {"%nwarpid", Special::nwarpid, 32},
    {"%smid", Special::smid, 32},
    {"%ctaid.x", Special::ctaid_x, 32},
    {"%ctaid.y", Special::ctaid_y, 32},
    {"%ctaid.z", Special::ctaid_z, 32},
    {"%nctaid.x", Special::nctaid_x, 32},
    {"%nctaid.y", Special::nctaid_y, 32},
    {"%nctaid.z", Special::nctaid_z, 32},
    {"%clock", Special::clock, 32},
    {"%clock64", Special::clock64, 64},
    {"%lanemask_eq", Special::lanemask_eq, 32},
    {"%lanemask_lt", Special::lanemask_lt, 32},
    {"%lanemask_le", Special::lanemask_le, 32},
    {"%lanemask_gt", Special::lanemask_gt, 32},
    {"%lanemask_ge", Special::lanemask_ge, 32},
};

// Where a special register's value comes from.
struct SpecialContext {
  uint32_t warp;         // the warp's index in the CTA
  unsigned cta_threads;  // %ntid.x
  unsigned max_warps;    // %nwarpid
  uint64_t cycle;        // the issue cycle
};

// The value of `reg` in `lane`.
inline uint64_t special_value(Special reg, const SpecialContext& c, unsigned lane) {
  const uint32_t bit = uint32_t{1} << lane;
  switch (reg) {
    case Special::tid_x: return uint64_t{c.warp} * 32 + lane;
    case Special::ntid_x: return c.cta_threads;
    case Special::ntid_y:
    case Special::ntid_z:
    case Special::nctaid_x:
    case Special::nctaid_y:
    case Special::nctaid_z: return 1;
    case Special::laneid: return lane;
    case Special::warpid: return c.warp;
    case Special::nwarpid: return c.max_warps;
    case Special::clock: return c.cycle & 0xffffffffu;
    case Special::clock64: return c.cycle;
    case Special::lanemask_eq: return bit;
    case Special::lanemask_lt: return bit - 1;
    case Special::lanemask_le: return bit | (bit - 1);
    case Special::lanemask_gt: return ~(bit | (bit - 1));
    case Special::lanemask_ge: return ~(bit - 1);
    case Special::tid_y:
    case Special::tid_z:
    case Special::smid:
    case Special::ctaid_x:
    case Special::ctaid_y:
    case Special::ctaid_z: return 0;
  }
  return 0;
}

struct SourceOperand {
  enum class Kind : uint8_t { reg, imm, special } kind = Kind::imm;
  uint32_t reg = 0;    // index into Program::registers for Kind::reg
  uint64_t value = 0;  // immediate bits, already in the operand's width
  Special special = Special::laneid;
};

// What a program instruction does, and so which path runs it. Every path
// switches on it; none infers it from other fields. Branches, memory and
// warp-wide operations become kinds of their own when the model runs them.
enum class InstrKind : uint8_t {
  arithmetic,  // a form of the instruction table, on the unit its Pipe names, through the exact core
  mov,         // on the ALU: a copy of a register, immediate or special register; a pack of 2 or 4
               // sources into one register (first source lowest); an unpack of one into 2 or 4
};

inline constexpr unsigned kMaxDests = 4;
inline constexpr uint32_t kSink = ~uint32_t{0};  // the destination `_`: the value goes nowhere

struct ProgramInstr {
  InstrKind kind = InstrKind::arithmetic;
  isa::Instr instr;               // arithmetic: the decoded form
  unsigned mov_bits = 0;          // mov: the width moved
  bool reads_carry = false;       // the carry flag (CC.CF) is a source
  bool writes_carry = false;      // ... and a destination
  uint32_t dest[kMaxDests] = {};  // register indices (or kSink); dest[k] gets WarpOp::result[k]
  unsigned num_dest = 1;          // more than one: an unpacking mov
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
