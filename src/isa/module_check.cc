#include "isa/module_check.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "isa/async_forms.h"
#include "isa/opcodes.h"
#include "isa/sync_forms.h"
#include "isa/table.h"
#include "isa/tcgen05_forms.h"
#include "isa/tensor_forms.h"

namespace ptxfu::isa {
namespace {

bool before(SourceLoc a, SourceLoc b) { return a.line != b.line ? a.line < b.line : a.column < b.column; }

std::string_view opcode_of(const Statement& st) { return st.mnemonic.text.substr(0, st.mnemonic.text.find('.')); }

// A scalar mov (the table holds only mov's vector forms), as ptxas judges
// it: one of mov's types, two operands, and every register or special
// register exactly as wide as the type (predicates only with .pred).
bool check_scalar_mov(const Statement& st, const RegisterTable& regs, Diagnostic& err) {
  const std::string_view m = st.mnemonic.text;
  const std::string_view type = m.size() > 4 ? m.substr(4) : "";
  static constexpr std::string_view kTypes[] = {"pred", "b16", "b32", "b64", "b128", "u16", "u32",
                                                "u64",  "s16", "s32", "s64", "f32",  "f64"};
  if (m.substr(0, 4) != "mov." || std::find(std::begin(kTypes), std::end(kTypes), type) == std::end(kTypes)) {
    err = {st.mnemonic.column, "Unexpected instruction types specified for 'mov'", st.mnemonic.line};
    return false;
  }
  const unsigned bits = type == "pred" ? 1 : static_cast<unsigned>(std::stoul(std::string(type.substr(1))));
  const auto mismatch = [&](const Token& t, std::string_view what) {
    err = {t.column, fmt::format("{} for instruction 'mov'", what), t.line};
    return false;
  };
  if (st.num_operands != 2) return mismatch(st.mnemonic, "Arguments mismatch");
  for (unsigned k = 0; k < 2; ++k) {
    const Token& t = st.operands[k];
    if (const auto r = regs.lookup(t.text)) {
      const unsigned have = r->kind == RegKind::predicate ? 1 : r->bits;
      if (have != bits) return mismatch(t, "Arguments mismatch");
    } else if (const auto sr = special_register(t.text)) {
      if (sr->vector) return mismatch(t, "Argument vector size mismatch");
      if (sr->bits != bits) return mismatch(t, "Arguments mismatch");
    }
  }
  return true;
}

bool is_table_opcode(std::string_view word) {
  for (const OpInfo& o : kOps)
    if (o.name == word) return true;
  return false;
}

}  // namespace

bool is_table_statement(const Statement& st) {
  const std::string_view opcode = opcode_of(st);
  for (const OpInfo& o : kOps) {
    if (o.name != opcode) continue;
    if (!o.vector_forms_only) return true;
    for (unsigned k = 0; k < st.num_operands; ++k)
      if (st.forms[k] == OperandForm::vector) return true;
    return false;
  }
  return false;
}

namespace {

// The names visible inside one function: registers and variables in nested
// scopes, plus the function's labels and the module's symbols.
class FunctionScope {
 public:
  FunctionScope(const Function& f, const std::unordered_map<std::string_view, SourceLoc>& module_names,
                std::vector<ModuleError>& errors)
      : module_names_(module_names), errors_(errors), variables_(1) {
    for (const NameRef& l : f.labels)
      if (!labels_.insert(l.name).second) error(l.loc, fmt::format("Duplicate definition of label '{}'", l.name));
    for (const auto* list : {&f.returns, &f.params})
      for (const Declaration& d : *list) declare(d);
  }

  void open() {
    regs_.push_scope();
    variables_.emplace_back();
  }
  void close() {
    regs_.pop_scope();
    if (variables_.size() > 1) variables_.pop_back();
  }

  void declare(const Declaration& d) {
    if (d.space == StateSpace::reg) {
      const auto type = reg_type(d.type);
      if (!type) {
        error(d.type_loc, fmt::format("Unknown register type '.{}'", d.type));
        return;
      }
      if (!regs_.declare(d.name, d.count, *type))
        error(d.loc, fmt::format("Duplicate definition of variable '{}'", d.name));
      return;
    }
    if (!variables_.back().insert(d.name).second)
      error(d.loc, fmt::format("Duplicate definition of variable '{}'", d.name));
  }

  const RegisterTable& registers() const { return regs_; }

  // A dotted name that is no special register, as ptxas judges it: a
  // register's video selector (`%tid.x` where `%tid` is a register) or a
  // field of a variable (`a.b`). Empty when the name is fine.
  std::string dotted_name_error(std::string_view name) const {
    const size_t dot = name.find('.');
    if (dot == std::string_view::npos) return {};
    const std::string_view field = name.substr(dot);
    if (!regs_.lookup(name.substr(0, dot))) {
      if (name[0] == '%' && is_special_register(name)) return {};
      return fmt::format("Unknown field '{}'", field);
    }
    static constexpr std::string_view kSelectors[] = {".b0", ".b1", ".b2", ".b3", ".h0", ".h1"};
    if (std::find(std::begin(kSelectors), std::end(kSelectors), field) != std::end(kSelectors)) return {};
    return fmt::format("Unknown video selector: '{}'", field);
  }

  // Module symbols (functions, globals) must be declared before their use,
  // as ptxas requires; labels may be used before they stand.
  bool known(std::string_view name, SourceLoc use) const {
    if (name == "_" || name == "WARP_SZ") return true;
    if (regs_.lookup(name) || (name[0] == '%' && is_special_register(name))) return true;
    if (labels_.count(name)) return true;
    if (const auto it = module_names_.find(name); it != module_names_.end() && before(it->second, use)) return true;
    for (const auto& frame : variables_)
      if (frame.count(name)) return true;
    return false;
  }

  void error(SourceLoc loc, std::string message) { errors_.push_back({loc, std::move(message)}); }

 private:
  const std::unordered_map<std::string_view, SourceLoc>& module_names_;  // name -> where first declared
  std::vector<ModuleError>& errors_;
  RegisterTable regs_;
  std::vector<std::unordered_set<std::string_view>> variables_;
  std::unordered_set<std::string_view> labels_;
};

// cvta converts a register or a variable's address, never a memory operand.
bool check_cvta(const Statement& st, Diagnostic& err) {
  const bool to = st.mnemonic.text.rfind("cvta.to.", 0) == 0;
  for (unsigned k = 0; k < st.num_operands; ++k) {
    if (st.forms[k] != OperandForm::address) continue;
    const Token& t = st.operands[k];
    const bool holds_register = t.text.find('%') != std::string_view::npos;  // [%rd1], not [var]
    err = {t.column,
           to || holds_register
               ? fmt::format("Argument {} of instruction '{}': must be register", k, to ? "cvta.to" : "cvta")
               : std::string("Arguments mismatch for instruction 'cvta'"),
           t.line};
    return false;
  }
  return true;
}

// `syntax_error`: the function has one; ptxas stops there and never
// resolves the labels used before it, so names that may be labels pass.
void check_instruction(const Instruction& in, const std::vector<NameRef>& names, FunctionScope& scope,
                       const Capabilities& caps, bool syntax_error) {
  const Statement& st = in.st;
  for (uint32_t k = 0; k < in.num_names; ++k) {
    const NameRef& n = names[in.first_name + k];
    if (const std::string dotted = scope.dotted_name_error(n.name); !dotted.empty()) {
      scope.error(n.loc, dotted);
      return;
    }
    if (!scope.known(n.name, n.loc)) {
      if (syntax_error && n.name[0] != '%') continue;
      scope.error(n.loc, fmt::format("Unknown symbol '{}'", n.name));
      return;
    }
  }
  if (!st.guard.text.empty()) {
    const auto reg = scope.registers().lookup(st.guard.text);
    if (!reg || reg->kind != RegKind::predicate) {
      scope.error({st.guard.line, st.guard.column}, "Predicate expression expected");  // ptxas 13.0's words
      return;
    }
  }
  // A special register the target or PTX version lacks (the cluster
  // registers), named before anything else about the instruction.
  for (uint32_t k = 0; k < in.num_names; ++k) {
    const NameRef& n = names[in.first_name + k];
    // only the cluster registers need more than every target has
    const bool cluster = n.name.rfind("%cluster", 0) == 0 || n.name.rfind("%nclusterid", 0) == 0 ||
                         n.name.rfind("%is_explicit_cluster", 0) == 0;
    if (!cluster || scope.registers().lookup(n.name)) continue;
    const auto sr = special_register(n.name.substr(0, n.name.find('.')));
    if (!sr || (caps.sm >= sr->sm && caps.ptx >= sr->ptx)) continue;
    const std::string_view base = n.name.substr(0, n.name.find('.'));
    scope.error({st.mnemonic.line, st.mnemonic.column},
                caps.ptx < sr->ptx ? fmt::format("Feature '{}' requires PTX ISA .version {}.{} or later", base,
                                                 sr->ptx / 10, sr->ptx % 10)
                                   : fmt::format("Feature '{}' requires .target sm_{} or higher", base, sr->sm));
    return;
  }
  // mov.v4 of a whole vector special register (%tid, %clusterid) into four registers
  if (const auto sr = st.num_operands == 2 && st.mnemonic.text.rfind("mov.v4.", 0) == 0
                          ? special_register(st.operands[1].text)
                          : std::nullopt;
      sr && sr->vector && st.forms[0] == OperandForm::vector && vector_elements(st.operands[0].text, nullptr, 0) == 4)
    return;
  Diagnostic d;
  bool other = false;
  if (check_statement(st, caps, &scope.registers(), d, other) || other) {
    const std::string_view opcode = opcode_of(st);
    if (!other ||
        (opcode == "mov" ? check_scalar_mov(st, scope.registers(), d) : opcode != "cvta" || check_cvta(st, d)))
      return;
  }
  // ptxas reports an instruction's own errors on its mnemonic's line; the
  // column is the operand's where it is on that line.
  const bool same_line = d.line == 0 || d.line == st.mnemonic.line;
  scope.error({st.mnemonic.line, same_line ? d.column : st.mnemonic.column}, d.message);
}

}  // namespace

bool check_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err,
                     bool& other_instruction) {
  const std::string_view opcode = opcode_of(st);
  if (is_tensor_statement(st)) {  // the warp-level matrix rows (tensor_forms.h)
    other_instruction = false;
    return check_tensor_statement(st, caps, regs, err);
  }
  if (is_sync_statement(st)) {  // fence, membar, elect, setmaxnreg, ... (sync_forms.h)
    other_instruction = false;
    return check_sync_statement(st, caps, regs, err);
  }
  if (is_async_statement(st)) {  // mbarrier, cp.async.bulk, ld/st hints, ... (async_forms.h)
    other_instruction = false;
    return check_async_statement(st, caps, regs, err);
  }
  other_instruction = !is_table_statement(st) && is_other_instruction(opcode);
  if (other_instruction) {
    err = {st.mnemonic.column,
           fmt::format("'{}' is not an arithmetic instruction; ptxfu checks the arithmetic chapter only", opcode)};
    return false;
  }
  if (st.num_operands == 0) {
    if (!is_table_opcode(opcode)) {
      err = {st.mnemonic.column, fmt::format("Not a name of any known instruction: '{}'", opcode)};
    } else {
      err = {st.mnemonic.column, fmt::format("Arguments mismatch for instruction '{}'", opcode)};
    }
    return false;
  }
  const OperandValues values = operand_values(st);
  if (values.bad_vector >= 0) {
    const Token& v = st.operands[values.bad_vector];
    err = {v.column, fmt::format("Illegal vector size: {}", vector_elements(v.text, nullptr, 0)), v.line};
    return false;
  }
  Instr instr;
  return check_form(st.mnemonic.text, values.src, caps, st.mnemonic.column, instr, err, values.dest) &&
         check_operands(instr, st, regs, err);
}

namespace {

// The function a call names: its first operand outside parentheses.
std::string_view callee_of(const Statement& st) {
  for (unsigned k = 0; k < st.num_operands; ++k)
    if (st.forms[k] == OperandForm::plain) return st.operands[k].text;
  return {};
}

// ptxas's rule once every line has passed: an entry whose code (its callees'
// too) uses both .cta_group::1 and ::2 is refused, on no line; at the entry
// here. `groups`: each function's own (tcgen05_cta_groups), by index.
void check_cta_groups(const Module& m, const std::vector<uint8_t>& groups, std::vector<ModuleError>& errors) {
  std::unordered_map<std::string_view, size_t> bodies;
  for (size_t i = 0; i < m.functions.size(); ++i)
    if (m.functions[i].has_body) bodies.emplace(m.functions[i].name, i);
  for (size_t e = 0; e < m.functions.size(); ++e) {
    const Function& entry = m.functions[e];
    if (!entry.is_entry || !entry.has_body) continue;
    unsigned used = 0;
    std::vector<size_t> todo{e};
    std::unordered_set<size_t> seen{e};
    while (!todo.empty() && used != 3) {
      const size_t fi = todo.back();
      todo.pop_back();
      used |= groups[fi];
      for (const Instruction& in : m.functions[fi].instructions) {
        if (opcode_of(in.st) != "call") continue;
        const auto it = bodies.find(callee_of(in.st));
        if (it != bodies.end() && seen.insert(it->second).second) todo.push_back(it->second);
      }
    }
    if (used == 3)
      errors.push_back({entry.loc, fmt::format("Function '{}' uses single CTA(.cta_group::1) and CTA pair "
                                               "granularity(.cta_group::2) and that is not allowed.",
                                               entry.name)});
  }
}

}  // namespace

void check_module(const Module& m, const Capabilities& caps, std::vector<ModuleError>& errors) {
  if (!m.version) errors.push_back({{1, 1}, "Missing .version directive at start of file"});
  if (!m.target) errors.push_back({{1, 1}, "Missing .target directive at start of file"});
  // ptxas stops at the first instruction outside a function (a syntax
  // error); the ones after it are no further errors.
  if (!m.loose_instructions.empty()) {
    const Statement& st = m.loose_instructions.front().st;
    errors.push_back({{st.mnemonic.line, st.mnemonic.column}, "instruction outside a function body"});
  }
  if (m.address_size_32)  // ptxas 13.0's words, which name the target
    errors.push_back({*m.address_size_32, caps.sm >= 90 ? "32-Bit ABI (--machine 32 or 32-Bit addressing) is not "
                                                          "supported on sm_90 or higher architectures."
                                                        : "32-Bit compilation is no longer supported"});

  std::unordered_map<std::string_view, SourceLoc> module_names;
  for (const Declaration& d : m.globals)
    if (!module_names.emplace(d.name, d.loc).second)
      errors.push_back({d.loc, fmt::format("Duplicate definition of variable '{}'", d.name)});
  std::unordered_set<std::string_view> defined;  // functions with a body
  for (const Function& f : m.functions) {
    if (const auto it = module_names.find(f.name); it == module_names.end() || before(f.loc, it->second))
      module_names[f.name] = f.loc;
    if (f.has_body && !defined.insert(f.name).second)
      errors.push_back({f.loc, fmt::format("Duplicate definition of function '{}'", f.name)});
  }

  std::vector<uint8_t> cta_groups(m.functions.size());  // tcgen05's, each function's own
  for (size_t fi = 0; fi < m.functions.size(); ++fi) {
    const Function& f = m.functions[fi];
    if (!f.has_body) continue;
    FunctionScope scope(f, module_names, errors);
    for (const BodyItem& item : f.body) {
      switch (item.kind) {
        case BodyItem::Kind::scope_open: scope.open(); break;
        case BodyItem::Kind::scope_close: scope.close(); break;
        case BodyItem::Kind::declaration: scope.declare(f.declarations[item.index]); break;
        case BodyItem::Kind::label: break;
        case BodyItem::Kind::instruction: {
          const Instruction& in = f.instructions[item.index];
          const std::string_view opcode = opcode_of(in.st);
          if (opcode == "tcgen05") cta_groups[fi] |= static_cast<uint8_t>(tcgen05_cta_groups(in.st));
          if (!is_table_opcode(opcode) && !is_other_instruction(opcode)) {
            scope.error({in.st.mnemonic.line, in.st.mnemonic.column},
                        fmt::format("Not a name of any known instruction: '{}'", opcode));
            break;
          }
          check_instruction(in, f.names, scope, caps, f.syntax_error);
          break;
        }
      }
    }
  }
  if (errors.empty() && std::any_of(cta_groups.begin(), cta_groups.end(), [](uint8_t g) { return g != 0; }))
    check_cta_groups(m, cta_groups, errors);
}

}  // namespace ptxfu::isa
