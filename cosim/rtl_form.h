// One instruction form on the reference RTL (rtl_ref/): the decoded PTX
// instruction, the RTL unit that runs it and the control inputs the unit
// gets. The one encoding of PTX onto the RTL's ports, used by the in-model
// RTL unit (from the decoded instruction it already has) and by the
// co-simulation harness (from a mnemonic). The op_i values come from
// rtl_ref/ptxfu_ops.svh through the generated cosim/rtl_ops.h.
#pragma once
#include <cstdint>
#include <string>

#include "isa/instr.h"

namespace ptxfu::cosim {

enum class UnitKind : uint8_t { hfma2, hmnmx2 };
const char* name(UnitKind u);

// The control inputs of a beat (both units; each reads its own fields).
struct Control {
  uint8_t op = 0;     // op_i: rtl_op::hfma2_* or rtl_op::hmnmx2_* (rtl_ref/ptxfu_ops.svh)
  bool bf16 = false;  // fmt_i
  bool ftz = false;
  bool sat = false;
  bool relu = false;
  bool oob = false;
  bool nan = false;  // .NaN
  bool xorsign_abs = false;
};

// Which RTL port a PTX source operand drives.
enum class Port : uint8_t { a, b, c };

struct Form {
  std::string mnemonic;  // as PTX spells it, e.g. "fma.rn.f16x2" (for messages only)
  isa::Instr instr;
  UnitKind unit = UnitKind::hfma2;
  Control ctrl;
  unsigned num_src = 0;  // PTX source operands (1..3)
  Port port[3] = {Port::a, Port::b, Port::c};
  unsigned lanes = 2;  // 1 for the scalar forms: lane 0 only is compared
  bool bf16 = false;
};

// Maps a decoded instruction onto a unit. Returns false with a reason in
// `error` when no RTL unit runs it.
bool make_form(const isa::Instr& instr, Form& form, std::string& error);
// The same from a mnemonic (decoded first; false also when it does not decode).
bool make_form(const std::string& mnemonic, Form& form, std::string& error);

// The lane value of operand `bits` (bits 16l+15:16l).
inline uint16_t lane(uint32_t bits, unsigned l) { return static_cast<uint16_t>(bits >> (16 * l)); }

// The operand and result bits `form` uses: both lanes of a pack, lane 0 of a
// scalar form.
inline uint32_t lane_mask(const Form& form) { return form.lanes == 2 ? 0xffffffffu : 0xffffu; }

}  // namespace ptxfu::cosim
