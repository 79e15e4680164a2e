// ldmatrix, stmatrix and movmatrix: their words and the rules that judge them.
#include "isa/tensor_rows.h"

#include <fmt/format.h>

#include <string>

namespace ptxfu::isa::tensor_rows {
namespace {

// ldmatrix / stmatrix / movmatrix: the words of one mnemonic.
struct MatrixForm {
  bool sync = false, aligned = false, trans = false, cta = false, other_space = false;
  std::string_view shape, num, type, extra_type;
};

bool read_matrix(const Statement& st, std::string_view instr, MatrixForm& f, Diagnostic& err) {
  const Words w = split(st.mnemonic.text);
  for (unsigned i = 0; i < w.n; ++i) {
    const std::string_view x = w.list[i];
    if (x == "sync") {
      f.sync = true;
    } else if (x == "aligned") {
      f.aligned = true;
    } else if (x == "trans") {
      f.trans = true;
    } else if (x == "m8n8" || x == "m16n8") {
      f.shape = x;
    } else if (x == "x1" || x == "x2" || x == "x4") {
      f.num = x;
    } else if (x == "shared" || x == "shared::cta") {
      f.cta |= x == "shared::cta";
    } else if (x == "global" || x == "local" || x == "const" || x == "param" || x == "shared::cluster") {
      f.other_space = true;
    } else if (listed(kTypeNames, x)) {
      (f.type.empty() ? f.type : f.extra_type) = x;
    } else {
      return fail(err, st.mnemonic, fmt::format("Unknown modifier '.{}'", x));
    }
  }
  (void)instr;
  return true;
}

// "Feature '.m16n8' not supported on .target 'sm_90'": a shape of the
// architecture-specific targets from sm_100 on.
bool specific_target(const Capabilities& caps) {
  const char last = caps.target_name.empty() ? ' ' : caps.target_name.back();
  return caps.sm >= 100 && (last == 'a' || last == 'f');
}

}  // namespace

bool check_ldst_matrix(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err,
                       bool store) {
  const std::string_view instr = store ? "stmatrix" : "ldmatrix";
  MatrixForm f;
  if (!read_matrix(st, instr, f, err)) return false;
  if (f.shape == "m16n8" && !specific_target(caps))
    return fail(err, st.mnemonic, fmt::format("Feature '.m16n8' not supported on .target '{}'", caps.target_name));
  const bool b16 = f.type == "b16" || f.type == "b8";
  if (!f.extra_type.empty() || (!f.type.empty() && !b16) || (store && f.type.empty()))
    return fail(err, st.mnemonic, fmt::format("Unexpected instruction types specified for '{}'", instr));
  const unsigned vec = store ? 1 : 0, addr = store ? 0 : 1;
  if (st.num_operands != 2 || st.forms[addr] != OperandForm::address)
    return fail(err, st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", instr));
  const unsigned n = elements_in(st, vec);
  if (n != 1 && n != 2 && n != 4) return fail(err, st.operands[vec], fmt::format("Illegal vector size: {}", n));
  if (!check_elements(st.operands[vec], st.forms[vec], {32, true, true}, regs, instr, err)) return false;
  const TensorGate gate = store ? TensorGate{"stmatrix", 90, 78, true} : TensorGate{"ldmatrix", 75, 65};
  if (std::string e = gate_error(gate, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  if (f.cta && caps.ptx < 78) return fail(err, st.mnemonic, "Feature '::cta' requires PTX ISA .version 7.8 or later");
  if (!f.sync) return fail(err, st.mnemonic, fmt::format(".sync modifier required for instruction '{}'", instr));
  if (!f.aligned) return fail(err, st.mnemonic, fmt::format(".aligned modifier required for instruction '{}'", instr));
  if (f.shape.empty())
    return fail(err, st.mnemonic, fmt::format("Shape modifier required for instruction '{}'", instr));
  if (f.shape != "m8n8")
    return fail(err, st.mnemonic, fmt::format("Illegal matrix shape '.{}' for instruction '{}'", f.shape, instr));
  if (f.num.empty()) return fail(err, st.mnemonic, fmt::format(".num modifier required for instruction '{}'", instr));
  if (f.other_space) return fail(err, st.mnemonic, fmt::format("State space incorrect for instruction '{}'", instr));
  if (f.type.empty())
    return fail(err, st.mnemonic,
                fmt::format("Unexpected number of instruction types specified for {} with shape '.m8n8'", instr));
  if (f.type != "b16")
    return fail(err, st.mnemonic, fmt::format("Incorrect instruction type specified for {} with shape '.m8n8'", instr));
  const unsigned want = static_cast<unsigned>(f.num[1] - '0');
  if (st.forms[vec] != OperandForm::vector || n != want)
    return fail(err, st.operands[vec],
                fmt::format("Vector of size {} is expected for argument {} of instruction '{}'", want, vec, instr));
  return true;
}

bool check_movmatrix(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  MatrixForm f;
  if (!read_matrix(st, "movmatrix", f, err)) return false;
  if (f.shape == "m16n8" && !specific_target(caps))
    return fail(err, st.mnemonic, fmt::format("Feature '.m16n8' not supported on .target '{}'", caps.target_name));
  if (f.type != "b16" || !f.extra_type.empty())
    return fail(err, st.mnemonic, "Unexpected instruction types specified for 'movmatrix'");
  if (st.num_operands != 2) return fail(err, st.mnemonic, "Arguments mismatch for instruction 'movmatrix'");
  for (unsigned k = 0; k < 2; ++k)
    if (st.forms[k] != OperandForm::vector &&
        !check_elements(st.operands[k], st.forms[k], {32, true, true}, regs, "movmatrix", err))
      return false;
  if (std::string e = gate_error({"movmatrix", 75, 78}, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  for (unsigned k = 0; k < 2; ++k)
    if (st.forms[k] == OperandForm::vector)
      return fail(err, st.operands[k], "Vector operand is not allowed for instruction 'movmatrix'");
  if (!f.sync) return fail(err, st.mnemonic, ".sync modifier required for instruction 'movmatrix'");
  if (!f.aligned) return fail(err, st.mnemonic, ".aligned modifier required for instruction 'movmatrix'");
  if (!f.trans) return fail(err, st.mnemonic, ".trans modifier required for instruction 'movmatrix'");
  if (f.shape != "m8n8")
    return fail(
        err, st.mnemonic,
        fmt::format("Illegal matrix shape '{}{}' for instruction 'movmatrix'", f.shape.empty() ? "" : ".", f.shape));
  return true;
}

}  // namespace ptxfu::isa::tensor_rows
