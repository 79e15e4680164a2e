// Turns an instruction mnemonic ("fma.rn.ftz.f16") into a decoded Instr and
// checks it against a target. Diagnostics use ptxas's wording.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "isa/features.h"
#include "isa/instr.h"
#include "isa/table.h"

namespace ptxfu::isa {

struct Diagnostic {
  unsigned column = 0;  // 1-based, relative to the text given
  std::string message;
  unsigned line = 0;  // where a statement spans lines: the line of `column`; 0 when unknown
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

// Decodes `mnemonic` for an instruction with `num_src` source values (a
// vector operand {a, b, e, f} counts its elements) and a destination of
// `dest_values` elements (1, or a vector's: mov's unpack). `column` is where
// the mnemonic starts in the line (1-based), for diagnostics.
bool decode(std::string_view mnemonic, unsigned num_src, unsigned column, Instr& out, Diagnostic& err,
            unsigned dest_values = 1);

// Checks that `caps` provide every feature the decoded form uses.
bool check_target(const Instr& in, const Capabilities& caps, unsigned column, Diagnostic& err);

// The one legality check of a form: decode, then the target's features.
// `check`, `eval`, the C API and the models all call it.
bool check_form(std::string_view mnemonic, unsigned num_src, const Capabilities& caps, unsigned column, Instr& out,
                Diagnostic& err, unsigned dest_values = 1);

// The instruction's name as ptxas writes it in messages: the opcode, with
// its mode where it has one ('mul.hi', 'mad24.lo').
std::string instruction_name(Op op, ModSet mods);

// Why `mods` are not legal on `row` for `op` and `type`, in ptxas's words;
// nullopt when they are. The types are not checked against the row. decode() and the form enumeration use it.
std::optional<std::string> modifier_error(const FormRow& row, Op op, Type type, ModSet mods);

}  // namespace ptxfu::isa
