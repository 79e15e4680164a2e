// Loading an .entry: symbols to frame slots and addresses, memory, the
// functions it calls, and the immediate post-dominator of every branch
// (cfg.h). The statements themselves are lowered in lower.cc.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include <fmt/format.h>

#include "isa/lexer.h"
#include "isa/module.h"
#include "isa/module_check.h"
#include "isa/opcodes.h"
#include "isa/statement.h"
#include "isa/target_options.h"
#include "kernel/cfg.h"
#include "kernel/kernel.h"
#include "kernel/loader.h"

namespace ptxfu::kernel {
namespace loading {
namespace {

unsigned type_bytes(std::string_view type) {
  const auto t = isa::find_type(type);
  if (!t || *t == isa::Type::pred) return 0;
  return isa::info(*t).bits / 8;
}

uint64_t align_up(uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

}  // namespace

void Loader::load(std::string_view entry_name) {
  const isa::Function* entry = nullptr;
  unsigned entries = 0;
  for (const isa::Function& f : m_.functions) {
    if (!f.is_entry || !f.has_body) continue;
    ++entries;
    if (entry_name.empty() ? entries == 1 : f.name == entry_name) entry = &f;
  }
  if (entry_name.empty() && entries != 1)
    throw KernelError(fmt::format("{}: {} .entry functions; name one ({})", k_.file, entries, entry_list()));
  if (!entry)
    throw KernelError(fmt::format("{}: no .entry named '{}' (the module has {})", k_.file, entry_name, entry_list()));
  for (const isa::Function& f : m_.functions) function_names_.emplace(f.name, &f);
  module_variables();
  add_function(*entry);
  for (size_t i = 0; i < order_.size(); ++i) load_function(i);
  finish_extern_shared();
  k_.constant = std::move(constant_);
  for (Function& f : k_.functions) compute_ipdoms(k_, f);
}

std::string Loader::entry_list() const {
  std::string s;
  for (const isa::Function& f : m_.functions)
    if (f.is_entry && f.has_body) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s.empty() ? "none" : s;
}

void Loader::fail(isa::SourceLoc loc, const std::string& message) const {
  throw KernelError(fmt::format("{}:{}:{}: error: {}", k_.file, loc.line, loc.column, message));
}

void Loader::fail(const isa::Token& tok, const std::string& message) const {
  fail(isa::SourceLoc{tok.line, tok.column}, message);
}

uint64_t Loader::variable_bytes(const isa::Declaration& d) const {
  const unsigned eb = type_bytes(d.type);
  if (eb == 0) fail(d.type_loc, fmt::format("a variable of type .{} cannot be placed in memory", d.type));
  return uint64_t{eb} * d.vector * (d.is_array ? d.elements : 1);
}

std::vector<uint8_t> Loader::initial_bytes(const isa::Declaration& d, uint64_t bytes) const {
  std::vector<uint8_t> out(bytes);
  if (d.init.empty()) return out;
  const auto type = isa::find_type(d.type);
  const unsigned eb = type_bytes(d.type);
  const bool floating = isa::is_float(*type);
  uint64_t at = 0;
  std::string_view s = d.init;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '{' || c == '}' || c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && s[j] != ',' && s[j] != '}' && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    const std::string_view lit = s.substr(i, j - i);
    uint64_t v = 0;
    if (!isa::literal_bits(lit, eb * 8, floating, v))
      fail(d.loc, fmt::format("initialiser '{}' of '{}': only numbers are supported", lit, d.name));
    if (at + eb > bytes)
      fail(d.loc, fmt::format("initialiser of '{}' has more values than the variable holds", d.name));
    for (unsigned b = 0; b < eb; ++b) out[at + b] = static_cast<uint8_t>(v >> (8 * b));
    at += eb;
    i = j;
  }
  return out;
}

void Loader::module_variables() {
  uint64_t global_end = 0;
  for (const isa::Declaration& d : m_.globals) {
    if (d.space == StateSpace::reg || d.space == StateSpace::param) continue;
    place_variable(d, global_end, nullptr);
  }
}

void Loader::place_variable(const isa::Declaration& d, uint64_t& global_end,
                            std::unordered_map<std::string_view, Symbol>* scope) {
  Symbol s;
  s.kind = Symbol::Kind::var;
  const uint64_t bytes = d.is_extern && d.space == StateSpace::shared ? 0 : variable_bytes(d);
  const uint64_t align = std::max<uint64_t>(d.align, std::max(1u, type_bytes(d.type)));
  s.bytes = bytes;
  switch (d.space) {
    case StateSpace::global: {
      global_end = align_up(global_end, align);
      s.space = Space::global;
      s.address = kGlobalBase + global_end;
      k_.globals.push_back({d.name, s.address, initial_bytes(d, bytes)});
      global_end += bytes;
      if (global_end > (uint64_t{1} << 30)) fail(d.loc, "module .global variables exceed 1 GiB");
      break;
    }
    case StateSpace::const_: {
      const uint64_t off = align_up(constant_.size(), align);
      s.space = Space::const_;
      s.address = kConstBase + off;
      std::vector<uint8_t> init = initial_bytes(d, bytes);
      k_.constants.push_back({d.name, s.address, init});
      constant_.resize(off);
      constant_.insert(constant_.end(), init.begin(), init.end());
      if (constant_.size() > (uint64_t{1} << 26)) fail(d.loc, ".const variables exceed 64 MiB");
      break;
    }
    case StateSpace::shared:
      s.space = Space::shared;
      if (d.is_extern) {
        s.address = kNoPc;
        extern_align_ = std::max(extern_align_,
                                 align);  // resolved to dynamic_shared_offset after all static variables are placed
      } else {
        k_.static_shared = static_cast<uint32_t>(align_up(k_.static_shared, align));
        s.address = k_.static_shared;
        if (k_.static_shared + bytes > kWindowSize / 2) fail(d.loc, "static .shared variables exceed 2 GiB");
        k_.static_shared += static_cast<uint32_t>(bytes);
      }
      if (!d.init.empty()) fail(d.loc, ".shared variables cannot have initialisers");
      break;
    case StateSpace::local:
      s.space = Space::local;
      k_.local_bytes = static_cast<uint32_t>(align_up(k_.local_bytes, align));
      s.address = k_.local_bytes;
      k_.local_bytes += static_cast<uint32_t>(bytes);
      if (k_.local_bytes > (1u << 20)) fail(d.loc, ".local variables exceed 1 MiB per thread");
      break;
    default: fail(d.loc, "unexpected state space for a variable");
  }
  (scope ? *scope : module_symbols_)[d.name] = s;
}

uint32_t Loader::add_function(const isa::Function& f) {
  if (const auto it = function_index_.find(f.name); it != function_index_.end()) return it->second;
  const isa::Function* body = &f;
  if (!f.has_body) {
    for (const isa::Function& g : m_.functions)
      if (g.name == f.name && g.has_body) body = &g;
    if (!body->has_body) return kNoPc;
  }
  const uint32_t index = static_cast<uint32_t>(k_.functions.size());
  function_index_[f.name] = index;
  Function fn;
  fn.name = body->name;
  fn.is_entry = body->is_entry;
  fn.address = kCodeBase + 16 * uint64_t{index};
  k_.functions.push_back(fn);
  order_.push_back(body);
  return index;
}

std::optional<Symbol> Loader::lookup(std::string_view name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (const auto s = it->find(name); s != it->end() && s->second.count == 0) return s->second;
    // %r<N> ranges: the prefix, then a decimal index below N
    size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    if (digits == name.size() || digits == 0) continue;
    if (const auto s = it->find(name.substr(0, digits)); s != it->end() && s->second.count > 0) {
      const unsigned long index = std::strtoul(std::string(name.substr(digits)).c_str(), nullptr, 10);
      if (index < s->second.count) {
        Symbol r = s->second;
        r.slot += static_cast<uint32_t>(index);
        r.count = 0;
        return r;
      }
    }
  }
  if (const auto s = module_symbols_.find(name); s != module_symbols_.end()) return s->second;
  if (const auto f = function_names_.find(name); f != function_names_.end()) {
    Symbol s;
    s.kind = Symbol::Kind::function;
    s.slot = add_function(*f->second);
    return s;
  }
  return std::nullopt;
}

void Loader::declare_reg(const isa::Declaration& d, Function& fn) {
  const auto type = isa::reg_type(d.type);
  if (!type) fail(d.type_loc, fmt::format("Unknown register type '.{}'", d.type));
  Symbol s;
  s.kind = Symbol::Kind::reg;
  s.bits = static_cast<uint8_t>(type->kind == isa::RegKind::predicate ? 1 : type->bits);
  s.floating = type->kind == isa::RegKind::floating;
  if (s.bits > 64 || d.vector > 1)
    fail(d.loc, fmt::format("registers of .{} (or vectors of them) are not supported", d.type));
  s.slot = fn.num_regs;
  s.count = d.count;
  const uint32_t n = d.count ? d.count : 1;
  if (fn.num_regs + n > (1u << 20)) fail(d.loc, "more than 2^20 registers in one function");
  fn.num_regs += n;
  fn.reg_bits.insert(fn.reg_bits.end(), n, s.bits);
  for (uint32_t i = 0; i < n; ++i)
    fn.reg_names.push_back(d.count ? fmt::format("{}{}", d.name, i) : std::string(d.name));
  scopes_.back()[d.name] = s;
}

void Loader::declare_params(const isa::Function& f, Function& fn) {
  auto add = [&](const isa::Declaration& d, std::vector<Param>& list, bool kernel) {
    if (d.space == StateSpace::reg) fail(d.loc, ".reg parameters are not supported; use .param");
    const uint64_t bytes = variable_bytes(d);
    const uint64_t align = std::max<uint64_t>(d.align, std::max(1u, type_bytes(d.type)));
    uint32_t& end = kernel ? k_.param_bytes : fn.param_bytes;
    end = static_cast<uint32_t>(align_up(end, align));
    Param p{d.name, end, static_cast<uint32_t>(bytes), d.type, isa::is_float(*isa::find_type(d.type))};
    end += static_cast<uint32_t>(bytes);
    list.push_back(p);
    Symbol s;
    s.kind = kernel ? Symbol::Kind::kernel_param : Symbol::Kind::frame_param;
    s.address = p.offset;
    s.bytes = bytes;
    scopes_.back()[d.name] = s;
  };
  for (const isa::Declaration& d : f.params) add(d, fn.params, f.is_entry);
  for (const isa::Declaration& d : f.returns) add(d, fn.returns, false);
}

void Loader::load_function(size_t index) {
  const isa::Function& f = *order_[index];
  cur_ = static_cast<uint32_t>(index);
  scopes_.assign(1, {});
  {
    Function& fn = k_.functions[index];
    fn.begin = static_cast<uint32_t>(k_.insts.size());
    declare_params(f, fn);
  }
  // Labels name the index of the instruction that follows them.
  labels_.clear();
  uint32_t count = 0;
  for (const isa::BodyItem& item : f.body) {
    if (item.kind == isa::BodyItem::Kind::label) labels_[f.labels[item.index].name] = k_.functions[index].begin + count;
    if (item.kind == isa::BodyItem::Kind::instruction) ++count;
  }
  uint64_t global_end_unused = 0;
  for (const isa::BodyItem& item : f.body) {
    switch (item.kind) {
      case isa::BodyItem::Kind::scope_open: scopes_.emplace_back(); break;
      case isa::BodyItem::Kind::scope_close:
        if (scopes_.size() > 1) scopes_.pop_back();
        break;
      case isa::BodyItem::Kind::label: break;
      case isa::BodyItem::Kind::declaration: {
        const isa::Declaration& d = f.declarations[item.index];
        Function& fn = k_.functions[index];
        if (d.space == StateSpace::reg) {
          declare_reg(d, fn);
        } else if (d.space == StateSpace::param) {
          const uint64_t bytes = variable_bytes(d);
          const uint64_t align = std::max<uint64_t>(d.align, std::max(1u, type_bytes(d.type)));
          fn.param_bytes = static_cast<uint32_t>(align_up(fn.param_bytes, align));
          Symbol s;
          s.kind = Symbol::Kind::frame_param;
          s.address = fn.param_bytes;
          s.bytes = bytes;
          fn.param_bytes += static_cast<uint32_t>(bytes);
          scopes_.back()[d.name] = s;
        } else if (d.space == StateSpace::global || d.space == StateSpace::const_) {
          fail(d.loc, ".global and .const variables inside a function are not supported");
        } else {
          place_variable(d, global_end_unused, &scopes_.back());
        }
        break;
      }
      case isa::BodyItem::Kind::instruction: {
        Inst in = instruction(f.instructions[item.index].st);
        in.function = cur_;
        k_.insts.push_back(in);
        break;
      }
    }
  }
  Inst end;
  end.kind = Kind::func_end;
  end.function = cur_;
  end.line = f.loc.line;
  end.column = f.loc.column;
  end.mnemonic = "ret";
  k_.insts.push_back(end);
  k_.functions[index].end = static_cast<uint32_t>(k_.insts.size() - 1);
}

void Loader::finish_extern_shared() {
  k_.dynamic_shared_offset = static_cast<uint32_t>(align_up(k_.static_shared, extern_align_));
  const uint64_t base = k_.dynamic_shared_offset;
  auto fix = [&](Operand& o) {
    if (o.kind == Operand::Kind::imm && tagged(o.value)) o.value = o.value - kExternTag + base;
  };
  for (Inst& in : k_.insts) {
    if (!in.addr.has_reg && in.addr.param == Address::Param::none && tagged(static_cast<uint64_t>(in.addr.offset)))
      in.addr.offset = static_cast<int64_t>(static_cast<uint64_t>(in.addr.offset) - kExternTag + base);
    for (Operand& o : in.src) fix(o);
  }
  for (Operand& o : k_.elements) fix(o);
}
}  // namespace loading

namespace {

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
  loading::Loader(k, m).load(options.entry);
  return k;
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
  loading::Loader(k, m).load(kStraightLineEntry);
  if (k.insts.size() == 1) throw KernelError(k.file + ": no instructions to simulate");
  return k;
}

std::string Kernel::where(const Inst& in) const { return fmt::format("{}:{}:{}", file, in.line, in.column); }

}  // namespace ptxfu::kernel
