// Loading an .entry: the module read and checked, then its functions walked
// in order, declarations to the symbol resolver (resolve.h) and statements
// to the lowering pass (lower.h), and the immediate post-dominator of every
// branch (cfg.h).
#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "isa/lexer.h"
#include "isa/module.h"
#include "isa/module_check.h"
#include "isa/target_options.h"
#include "kernel/cfg.h"
#include "kernel/kernel.h"
#include "kernel/lower.h"
#include "kernel/resolve.h"

namespace ptxfu::kernel {
namespace {

// Loads one .entry and the functions it reaches: the resolver takes each
// function's declarations, the lowering pass its statements, in body order.
// Whether an instruction of the entry `entry_name` (empty: the only one) or
// of a .func reads %reserved_smem_*: then the kernel's shared memory starts
// with the reserved region (kernel.h).
bool reads_reserved_smem(const isa::Module& m, std::string_view entry_name) {
  for (const isa::Function& f : m.functions) {
    if (f.is_entry && !entry_name.empty() && f.name != entry_name) continue;
    for (const auto& i : f.instructions)
      for (unsigned o = 0; o < i.st.num_operands; ++o)
        if (i.st.operands[o].text.find("%reserved_smem_offset_") != std::string_view::npos) return true;
  }
  return false;
}

void load_entry(Kernel& k, const isa::Module& m, std::string_view entry_name) {
  if (reads_reserved_smem(m, entry_name)) k.reserved_shared = k.static_shared = kReservedSmemBytes;
  loading::Resolver symbols(k, m);
  loading::Lowerer lower(k, symbols);
  symbols.start(entry_name);
  for (uint32_t index = 0; index < symbols.functions(); ++index) {  // lowering may add functions
    const isa::Function& f = symbols.definition(index);
    k.functions[index].begin = static_cast<uint32_t>(k.insts.size());
    symbols.begin_function(index, k.functions[index].begin);
    for (const isa::BodyItem& item : f.body) {
      switch (item.kind) {
        case isa::BodyItem::Kind::scope_open: symbols.open_scope(); break;
        case isa::BodyItem::Kind::scope_close: symbols.close_scope(); break;
        case isa::BodyItem::Kind::label: break;
        case isa::BodyItem::Kind::declaration: symbols.declare(f.declarations[item.index]); break;
        case isa::BodyItem::Kind::instruction: {
          Inst in = lower.instruction(f.instructions[item.index].st);
          in.function = index;
          k.insts.push_back(in);
          break;
        }
      }
    }
    lower.finish_wgmma(k.functions[index].begin);
    Inst end;  // where the function's paths reconverge and it returns
    end.kind = Kind::func_end;
    end.function = index;
    end.line = f.loc.line;
    end.column = f.loc.column;
    end.mnemonic = "ret";
    k.insts.push_back(end);
    k.functions[index].end = static_cast<uint32_t>(k.insts.size() - 1);
  }
  symbols.finish();
  for (Function& fn : k.functions) compute_ipdoms(k, fn);
}

// Throws the module's diagnostics (the first 20) as one KernelError.
void throw_if_errors(const std::string& file, std::vector<isa::ModuleError>& errors) {
  if (errors.empty()) return;
  std::stable_sort(errors.begin(), errors.end(), [](const isa::ModuleError& a, const isa::ModuleError& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.column < b.loc.column;
  });
  std::string msg;
  for (size_t i = 0; i < errors.size() && i < 20; ++i)
    msg += fmt::format("{}{}:{}:{}: error: {}", i ? "\n" : "", file, errors[i].loc.line, errors[i].loc.column,
                       errors[i].message);
  if (errors.size() > 20) msg += fmt::format("\n({} more errors)", errors.size() - 20);
  throw KernelError(msg);
}

// The lexemes of k.source, the lexer's errors in `errors`.
std::vector<isa::Lexeme> lex_source(const Kernel& k, std::vector<isa::ModuleError>& errors) {
  std::vector<isa::LexError> lex_errors;
  std::vector<isa::Lexeme> lexemes = isa::lex(*k.source, 1u << 16, lex_errors);
  for (auto& e : lex_errors) errors.push_back({e.loc, std::move(e.message)});
  return lexemes;
}

}  // namespace

void read_cluster_directives(Kernel& k);

Kernel load_kernel(std::string text, std::string file, const LoadOptions& options) {
  Kernel k;
  k.file = std::move(file);
  k.source = std::make_shared<std::string>(std::move(text));
  std::vector<isa::ModuleError> errors;
  const std::vector<isa::Lexeme> lexemes = lex_source(k, errors);
  const isa::Module m = isa::parse_module(lexemes, errors);
  isa::TargetOptions target;
  if (!options.target.empty()) target.target = std::string(options.target);
  std::optional<uint16_t> ptx;
  if (m.version) ptx = isa::parse_ptx_version(*m.version);
  std::string target_error;
  const auto caps = isa::resolve_capabilities(
      target, m.target ? std::optional<std::string>(std::string(*m.target)) : std::nullopt, ptx, false, target_error);
  if (!caps) throw KernelError(fmt::format("{}: {}", k.file, target_error));
  k.caps = *caps;
  if (errors.empty()) isa::check_module(m, k.caps, errors);
  throw_if_errors(k.file, errors);
  load_entry(k, m, options.entry);
  read_cluster_directives(k);
  return k;
}

// The entry's .reqnctapercluster X[, Y[, Z]] and .explicitcluster, between
// its parameter list and its body (the module parser keeps no performance
// directives). Refused below sm_90, as ptxas does.
void read_cluster_directives(Kernel& k) {
  const std::string& text = *k.source;
  const std::string_view name = k.entry().name;
  for (size_t at = text.find(".entry"); at != std::string::npos; at = text.find(".entry", at + 6)) {
    const size_t n = text.find_first_not_of(" \t\r\n", at + 6);
    if (n == std::string::npos || text.compare(n, name.size(), name) != 0) continue;
    const size_t close = text.find(')', n), body = text.find('{', close == std::string::npos ? n : close);
    const std::string head = text.substr(n, body == std::string::npos ? std::string::npos : body - n);
    k.explicit_cluster = head.find(".explicitcluster") != std::string::npos;
    if (const size_t r = head.find(".reqnctapercluster"); r != std::string::npos) {
      k.explicit_cluster = true;
      const char* p = head.c_str() + r + 18;
      for (unsigned d = 0; d < 3; ++d) {
        char* end = nullptr;
        const unsigned long v = std::strtoul(p, &end, 0);
        k.cluster_dims[d] = end == p ? 1 : static_cast<uint32_t>(v);
        p = end;
        while (*p == ' ' || *p == '\t') ++p;
        if (*p != ',') {
          for (unsigned e = d + 1; e < 3; ++e) k.cluster_dims[e] = 1;
          break;
        }
        ++p;
      }
    }
    break;
  }
  if (k.explicit_cluster && k.caps.sm < 90)
    throw KernelError(
        fmt::format("{}: error: '{}' declares a thread-block cluster (.reqnctapercluster or "
                    ".explicitcluster); clusters need sm_90 or higher, the kernel is loaded for sm_{}",
                    k.file, name, k.caps.sm));
}

bool defines_functions(std::string_view text) {
  std::vector<isa::LexError> lex_errors;
  std::vector<isa::ModuleError> errors;
  const isa::Module m = isa::parse_module(isa::lex(text, 1u << 16, lex_errors), errors);
  return !m.functions.empty();
}

// The statements become the body of an .entry without parameters: a header
// line before them (.version and .target of `caps`, the entry's opening) and
// a closing brace after them; lines are counted from the user's first line.
Kernel load_straight_line(std::string text, std::string file, const isa::Capabilities& caps) {
  Kernel k;
  k.file = std::move(file);
  k.straight_line = true;
  const std::string header = fmt::format(".version {}.{} .target {} .address_size 64 .entry {} () {{\n", caps.ptx / 10,
                                         caps.ptx % 10, caps.target_name, kStraightLineEntry);
  k.source = std::make_shared<std::string>(header + std::move(text) + "\n}");
  std::vector<isa::ModuleError> errors;
  std::vector<isa::Lexeme> lexemes = lex_source(k, errors);
  for (isa::Lexeme& l : lexemes) l.loc.line = l.loc.line > 1 ? l.loc.line - 1 : 1;
  for (isa::ModuleError& e : errors) e.loc.line = e.loc.line > 1 ? e.loc.line - 1 : 1;
  const isa::Module m = isa::parse_module(lexemes, errors);
  if (errors.empty() && m.functions.size() != 1)
    errors.push_back({{1, 1}, "a straight-line program holds statements and .reg declarations, not functions"});
  k.caps = caps;
  if (errors.empty()) isa::check_module(m, k.caps, errors);
  throw_if_errors(k.file, errors);
  load_entry(k, m, kStraightLineEntry);
  if (k.insts.size() == 1) throw KernelError(k.file + ": no instructions to simulate");
  return k;
}

std::string Kernel::where(const Inst& in) const { return fmt::format("{}:{}:{}", file, in.line, in.column); }

}  // namespace ptxfu::kernel
