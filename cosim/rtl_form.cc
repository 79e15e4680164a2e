#include "cosim/rtl_form.h"

#include "cosim/rtl_ops.h"
#include "isa/decode.h"
#include "isa/forms.h"

namespace ptxfu::cosim {

using isa::Mod;
using isa::Op;
using isa::Type;

const char* name(UnitKind u) { return u == UnitKind::hfma2 ? "hfma2" : "hmnmx2"; }

namespace {

// How many source operands a mnemonic's op takes (decode needs it).
unsigned sources_of(const std::string& mnemonic) {
  const std::string op = mnemonic.substr(0, mnemonic.find('.'));
  if (op == "fma") return 3;
  if (op == "neg" || op == "abs") return 1;
  return 2;
}

bool map_form(const isa::Instr& instr, const std::string& mnemonic, Form& form, std::string& error);

}  // namespace

bool make_form(const std::string& mnemonic, Form& form, std::string& error) {
  isa::Instr instr;
  isa::Diagnostic diag;
  if (!isa::decode(mnemonic, sources_of(mnemonic), 1, instr, diag)) {
    form = Form{};
    error = "cannot decode '" + mnemonic + "': " + diag.message;
    return false;
  }
  return map_form(instr, mnemonic, form, error);
}

bool make_form(const isa::Instr& instr, Form& form, std::string& error) {
  return map_form(instr, isa::spell(instr), form, error);
}

namespace {

bool map_form(const isa::Instr& instr, const std::string& mnemonic, Form& form, std::string& error) {
  form = Form{};
  form.instr = instr;
  form.mnemonic = mnemonic;
  const isa::Instr& in = form.instr;
  switch (in.type) {
    case Type::f16: form.lanes = 1; break;
    case Type::f16x2: form.lanes = 2; break;
    case Type::bf16:
      form.lanes = 1;
      form.bf16 = true;
      break;
    case Type::bf16x2:
      form.lanes = 2;
      form.bf16 = true;
      break;
    default: error = "'" + mnemonic + "' is not a half-precision (f16/bf16) form: no RTL unit runs it"; return false;
  }
  if (in.type2 != in.type) {
    error = "'" + mnemonic + "' is mixed precision: no RTL unit runs it";
    return false;
  }
  Control& c = form.ctrl;
  c.bf16 = form.bf16;
  c.ftz = in.has(Mod::ftz);
  c.sat = in.has(Mod::sat);
  c.relu = in.has(Mod::relu);
  c.oob = in.has(Mod::oob);
  c.nan = in.has(Mod::nan);
  c.xorsign_abs = in.has(Mod::xorsign) && in.has(Mod::abs);
  form.num_src = in.num_src;
  switch (in.op) {
    case Op::fma:
      form.unit = UnitKind::hfma2;
      c.op = rtl_op::hfma2_fma;
      form.port[0] = Port::a;
      form.port[1] = Port::b;
      form.port[2] = Port::c;
      break;
    case Op::add:
    case Op::sub:
      form.unit = UnitKind::hfma2;
      c.op = in.op == Op::add ? rtl_op::hfma2_add : rtl_op::hfma2_sub;
      form.port[0] = Port::a;
      form.port[1] = Port::c;  // d = a +/- c on the RTL
      break;
    case Op::mul:
      form.unit = UnitKind::hfma2;
      c.op = rtl_op::hfma2_mul;
      form.port[0] = Port::a;
      form.port[1] = Port::b;
      break;
    case Op::min:
    case Op::max:
    case Op::neg:
    case Op::abs:
      if (in.num_src == 3) {
        error = "'" + mnemonic + "': three-input min/max is not in the RTL";
        return false;
      }
      form.unit = UnitKind::hmnmx2;
      c.op = in.op == Op::min   ? rtl_op::hmnmx2_min
             : in.op == Op::max ? rtl_op::hmnmx2_max
             : in.op == Op::neg ? rtl_op::hmnmx2_neg
                                : rtl_op::hmnmx2_abs;
      form.port[0] = Port::a;
      form.port[1] = Port::b;
      break;
    default: error = "'" + mnemonic + "': no RTL unit runs this operation"; return false;
  }
  if (in.has(Mod::approx) || in.has(Mod::rz) || in.has(Mod::rm) || in.has(Mod::rp)) {
    error = "'" + mnemonic + "': the RTL rounds to nearest even only";
    return false;
  }
  return true;
}

}  // namespace

}  // namespace ptxfu::cosim
