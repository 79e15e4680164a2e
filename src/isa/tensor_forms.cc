// The public entry of the tensor-core rows (tensor_forms.h): it sends a
// statement to its family's rules (tensor_rows_*.cc), and the helpers
// those families share (tensor_rows.h).
#include "isa/tensor_forms.h"
#include "isa/tensor_rows.h"

#include <fmt/format.h>

#include <string>

#include "isa/features.h"
#include "isa/tcgen05_forms.h"

namespace ptxfu::isa {
namespace tensor_rows {

bool listed(std::string_view list, std::string_view word) {
  while (!list.empty()) {
    const size_t space = list.find(' ');
    if (list.substr(0, space) == word) return true;
    if (space == std::string_view::npos) break;
    list.remove_prefix(space + 1);
  }
  return false;
}

std::string foreign_word(std::string_view word, std::string_view instruction) {
  return listed(kForeignModifiers, word) ? fmt::format("Illegal modifier '.{}' for instruction '{}'", word, instruction)
                                         : fmt::format("Unknown modifier '.{}'", word);
}

bool fail(Diagnostic& err, const Token& at, std::string message) {
  err = {at.column, std::move(message), at.line};
  return false;
}

std::string gate_error(const TensorGate& g, const Capabilities& caps, std::string_view kind, std::string_view on) {
  if (g.name.empty()) return {};
  if (g.target_first && caps.sm < g.min_sm)
    return fmt::format("{} '{}'{} requires .target sm_{} or higher", kind, g.name, on, g.min_sm);
  if (caps.ptx < g.min_ptx)
    return fmt::format("{} '{}'{} requires PTX ISA .version {} or later", kind, g.name, on,
                       format_ptx_version(g.min_ptx));
  if (!g.targets.empty() ? !listed(g.targets, caps.target_name) : caps.sm < g.min_sm)
    return g.targets.empty() ? fmt::format("{} '{}'{} requires .target sm_{} or higher", kind, g.name, on, g.min_sm)
                             : fmt::format("{} '{}' not supported on .target '{}'",
                                           g.instruction ? "Instruction" : kind, g.name, caps.target_name);
  return {};
}

Words split(std::string_view mnemonic) {
  Words w;
  size_t dot = mnemonic.find('.');
  while (dot != std::string_view::npos && w.n < 24) {
    const size_t next = mnemonic.find('.', dot + 1);
    w.list[w.n++] = mnemonic.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
    dot = next;
  }
  return w;
}

bool read_shared_word(std::string_view x, SharedWords& w) {
  if (x == "sync") {
    w.sync = true;
  } else if (x == "aligned") {
    w.aligned = true;
  } else if (x == "satfinite") {
    w.satfinite = true;
  } else if (x == "popc") {
    w.popc = true;
  } else if (x == "xor" || x == "and") {
    w.bitop = x;
  } else {
    return false;
  }
  return true;
}

ElementKind element_of(std::string_view type) {
  if (type == "f64") return {64, false, true};
  if (type == "f32") return {32, false, true};
  if (type == "s32") return {32, true, false};
  if (type == "f16" || type == "bf16" || type == "tf32") return {32, false, false};
  return {32, true, true};  // the packed A and B types are .b32
}

bool check_elements(const Token& op, OperandForm form, const ElementKind& want, const RegisterTable* regs,
                    std::string_view instr, Diagnostic& err) {
  if (form == OperandForm::address || form == OperandForm::group || form == OperandForm::pair)
    return fail(err, op, fmt::format("Arguments mismatch for instruction '{}'", instr));
  if (!regs) return true;
  std::string_view e[8];
  const unsigned n = form == OperandForm::vector ? vector_elements(op.text, e, 8) : (e[0] = op.text, 1u);
  unsigned first_bits = 0;
  for (unsigned i = 0; i < n && i < 8; ++i) {
    const auto r = regs->lookup(e[i]);
    if (!r) continue;  // an immediate or a sink
    const unsigned bits = r->kind == RegKind::predicate ? 1 : r->bits;
    if (first_bits && bits != first_bits) return fail(err, op, "Incompatible elements of vector expression");
    first_bits = bits;
  }
  for (unsigned i = 0; i < n && i < 8; ++i) {
    const auto r = regs->lookup(e[i]);
    if (!r) continue;
    const bool kind_ok = r->kind == RegKind::bits || (r->kind == RegKind::integer && want.integer) ||
                         (r->kind == RegKind::floating && want.floating);
    if (r->bits != want.bits || !kind_ok)
      return fail(err, op, fmt::format("Arguments mismatch for instruction '{}'", instr));
  }
  return true;
}

unsigned elements_in(const Statement& st, unsigned k) {
  return st.forms[k] == OperandForm::vector ? vector_elements(st.operands[k].text, nullptr, 0) : 1;
}

}  // namespace tensor_rows

bool is_tensor_statement(const Statement& st) {
  const std::string_view m = st.mnemonic.text;
  const std::string_view op = m.substr(0, m.find('.'));
  const tensor_rows::Words w = tensor_rows::split(m);
  if (op == "mma") return true;
  if (op == "tcgen05") return is_tcgen05_statement(st);
  if (op == "ldmatrix" || op == "stmatrix") {
    for (unsigned i = 0; i < w.n; ++i)
      if (w.list[i] == "m16n16" || w.list[i] == "m8n16" || w.list[i].find("x16") != std::string_view::npos)
        return false;
    return true;
  }
  if (op == "wgmma") {
    const std::string_view what = w.n ? w.list[0] : "";
    return what == "mma_async" || what == "fence" || what == "commit_group" || what == "wait_group";
  }
  if (op == "wmma") {
    const std::string_view what = w.n ? w.list[0] : "";
    return what == "load" || what == "store" || what == "mma";
  }
  return op == "movmatrix";
}

bool check_tensor_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  const std::string_view m = st.mnemonic.text;
  const std::string_view op = m.substr(0, m.find('.'));
  if (op == "mma") return tensor_rows::check_mma(st, caps, regs, err);
  if (op == "tcgen05") return check_tcgen05_statement(st, caps, regs, err);
  if (op == "movmatrix") return tensor_rows::check_movmatrix(st, caps, regs, err);
  if (op == "wgmma") return tensor_rows::check_wgmma(st, caps, regs, err);
  if (op == "wmma") return tensor_rows::check_wmma(st, caps, regs, err);
  return tensor_rows::check_ldst_matrix(st, caps, regs, err, op == "stmatrix");
}

}  // namespace ptxfu::isa
