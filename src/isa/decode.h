// Turns an instruction mnemonic ("fma.rn.ftz.f16") into a decoded Instr and
// checks it against a target. Diagnostics use ptxas's wording.
#pragma once
#include <string>
#include <string_view>

#include "isa/features.h"
#include "isa/instr.h"

namespace ptxfu::isa {

struct Diagnostic {
  unsigned column = 0;  // 1-based, relative to the text given
  std::string message;
};

// What a target offers: its feature mask (after config overrides), sm number
// and PTX ISA version in force.
struct Capabilities {
  std::string target_name;
  uint16_t sm = 0;
  uint16_t ptx = kNewestPtx;
  FeatureMask mask;
};

Capabilities capabilities_of(const Target& target, uint16_t ptx);

// Decodes `mnemonic` for an instruction with `num_src` source operands.
// `column` is where the mnemonic starts in the line (1-based), for diagnostics.
bool decode(std::string_view mnemonic, unsigned num_src, unsigned column, Instr& out,
            Diagnostic& err);

// Checks that `caps` provide every feature the decoded form uses.
bool check_target(const Instr& in, const Capabilities& caps, unsigned column, Diagnostic& err);

// Whether `word` names a PTX instruction outside the arithmetic chapter (mov,
// ld, cvt, ...): callers skip or reject those with their own message.
bool is_non_arithmetic_opcode(std::string_view word);

}  // namespace ptxfu::isa
