// The symbol resolver (resolve.h): declarations to symbols, frame slots and
// addresses; module variables to memory.
#include "kernel/resolve.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

#include "isa/registers.h"
#include "isa/statement.h"

namespace ptxfu::kernel::loading {
namespace {

using isa::StateSpace;

unsigned type_bytes(std::string_view type) {
  const auto t = isa::find_type(type);
  if (!t || *t == isa::Type::pred) return 0;
  return isa::info(*t).bits / 8;
}

uint64_t align_up(uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

}  // namespace

void fail(const Kernel& k, isa::SourceLoc loc, const std::string& message) {
  throw KernelError(fmt::format("{}:{}:{}: error: {}", k.file, loc.line, loc.column, message));
}

void fail(const Kernel& k, const isa::Token& tok, const std::string& message) {
  fail(k, isa::SourceLoc{tok.line, tok.column}, message);
}

void Resolver::start(std::string_view entry_name) {
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
  add_function(*entry);  // function 0, before an initialiser names another
  module_variables();
}

std::string Resolver::entry_list() const {
  std::string s;
  for (const isa::Function& f : m_.functions)
    if (f.is_entry && f.has_body) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s.empty() ? "none" : s;
}

uint64_t Resolver::variable_bytes(const isa::Declaration& d) const {
  const unsigned eb = type_bytes(d.type);
  if (eb == 0) fail(k_, d.type_loc, fmt::format("a variable of type .{} cannot be placed in memory", d.type));
  return uint64_t{eb} * d.vector * (d.is_array ? d.elements : 1);
}

namespace {

// One element of an initialiser: from s[i] to the next ',' or '}' outside
// parentheses, without surrounding blanks.
std::string_view next_element(std::string_view s, size_t& i) {
  while (i < s.size() && (s[i] == '{' || s[i] == '}' || s[i] == ',' || std::isspace(static_cast<unsigned char>(s[i]))))
    ++i;
  const size_t from = i;
  int depth = 0;
  for (; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (depth <= 0 && (s[i] == ',' || s[i] == '}')) break;
  }
  std::string_view e = s.substr(from, i - from);
  while (!e.empty() && std::isspace(static_cast<unsigned char>(e.back()))) e.remove_suffix(1);
  return e;
}

// An address constant: SYM, generic(SYM), either followed by +N or -N.
bool address_literal(std::string_view lit, std::string_view& symbol, int64_t& addend) {
  std::string_view rest;
  if (lit.substr(0, 8) == "generic(") {
    const size_t close = lit.find(')');
    if (close == std::string_view::npos) return false;
    symbol = lit.substr(8, close - 8);
    rest = lit.substr(close + 1);
  } else {
    const size_t op = lit.find_first_of("+-");
    symbol = lit.substr(0, op);
    rest = op == std::string_view::npos ? "" : lit.substr(op);
  }
  while (!symbol.empty() && std::isspace(static_cast<unsigned char>(symbol.back()))) symbol.remove_suffix(1);
  while (!symbol.empty() && std::isspace(static_cast<unsigned char>(symbol.front()))) symbol.remove_prefix(1);
  if (symbol.empty() || !(std::isalpha(static_cast<unsigned char>(symbol[0])) || symbol[0] == '_' || symbol[0] == '$' ||
                          symbol[0] == '%'))
    return false;
  addend = 0;
  std::string r;
  for (char c : rest)
    if (!std::isspace(static_cast<unsigned char>(c))) r += c;
  if (r.empty()) return true;
  uint64_t v = 0;
  if ((r[0] != '+' && r[0] != '-') || !isa::literal_bits(std::string_view(r).substr(1), 64, false, v)) return false;
  addend = r[0] == '-' ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

}  // namespace

std::vector<uint8_t> Resolver::initial_bytes(const isa::Declaration& d, uint64_t bytes,
                                             std::vector<AddressFixup>& addresses) const {
  std::vector<uint8_t> out(bytes);
  if (d.init.empty()) return out;
  const auto type = isa::find_type(d.type);
  const unsigned eb = type_bytes(d.type);
  const bool floating = isa::is_float(*type);
  uint64_t at = 0;
  const std::string_view s = d.init;
  for (size_t i = 0; i < s.size();) {
    const std::string_view lit = next_element(s, i);
    if (lit.empty()) continue;
    if (at + eb > bytes)
      fail(k_, d.loc, fmt::format("initialiser of '{}' has more values than the variable holds", d.name));
    uint64_t v = 0;
    AddressFixup a;
    if (isa::literal_bits(lit, eb * 8, floating, v)) {
      for (unsigned b = 0; b < eb; ++b) out[at + b] = static_cast<uint8_t>(v >> (8 * b));
    } else if (address_literal(lit, a.symbol, a.addend)) {
      if (eb != 8)
        fail(k_, d.loc,
             fmt::format("initialiser '{}' of '{}': an address needs 64-bit elements, not .{}", lit, d.name, d.type));
      a.at = at;
      a.loc = d.loc;
      addresses.push_back(a);
    } else {
      fail(k_, d.loc,
           fmt::format("initialiser '{}' of '{}': expected a number or an address (SYM, generic(SYM), "
                       "either +N)",
                       lit, d.name));
    }
    at += eb;
  }
  return out;
}

void Resolver::module_variables() {
  for (const isa::Declaration& d : m_.globals) {
    if (d.space == StateSpace::reg || d.space == StateSpace::param) continue;
    place_variable(d, nullptr);
  }
  // Addresses in initialisers, once every variable has its place (a table may name one declared after it).
  for (const AddressFixup& a : fixups_) {
    const auto sym = lookup(a.symbol);
    if (!sym || (sym->kind != Symbol::Kind::var && sym->kind != Symbol::Kind::function))
      fail(k_, a.loc, fmt::format("initialiser names '{}', which is not a module variable or function", a.symbol));
    if (sym->kind == Symbol::Kind::var && sym->space != Space::global && sym->space != Space::const_)
      fail(k_, a.loc,
           fmt::format("initialiser takes the address of '{}', a .{} variable: only .global and .const "
                       "addresses are known at load",
                       a.symbol, name(sym->space)));
    if (sym->kind == Symbol::Kind::function && sym->slot == kNoPc)
      fail(k_, a.loc, fmt::format("initialiser takes the address of '{}', which has no body in this module", a.symbol));
    const uint64_t base = sym->kind == Symbol::Kind::function ? kCodeBase + 16 * uint64_t{sym->slot} : sym->address;
    const uint64_t v = base + static_cast<uint64_t>(a.addend);
    std::vector<uint8_t>& bytes = a.constant ? k_.constants[a.variable].init : k_.globals[a.variable].init;
    for (unsigned b = 0; b < 8; ++b) bytes[a.at + b] = static_cast<uint8_t>(v >> (8 * b));
    if (a.constant)
      for (unsigned b = 0; b < 8; ++b)
        constant_[k_.constants[a.variable].address - kConstBase + a.at + b] = static_cast<uint8_t>(v >> (8 * b));
  }
}

void Resolver::place_variable(const isa::Declaration& d, std::unordered_map<std::string_view, Symbol>* scope) {
  Symbol s;
  s.kind = Symbol::Kind::var;
  const uint64_t bytes = d.is_extern && d.space == StateSpace::shared ? 0 : variable_bytes(d);
  const uint64_t align = std::max<uint64_t>(d.align, std::max(1u, type_bytes(d.type)));
  s.bytes = bytes;
  switch (d.space) {
    case StateSpace::global: {
      global_end_ = align_up(global_end_, align);
      s.space = Space::global;
      s.address = kGlobalBase + global_end_;
      std::vector<AddressFixup> addresses;
      k_.globals.push_back({d.name, s.address, initial_bytes(d, bytes, addresses)});
      for (AddressFixup& a : addresses) {
        a.variable = k_.globals.size() - 1;
        fixups_.push_back(a);
      }
      global_end_ += bytes;
      if (global_end_ > (uint64_t{1} << 30)) fail(k_, d.loc, "module .global variables exceed 1 GiB");
      break;
    }
    case StateSpace::const_: {
      const uint64_t off = align_up(constant_.size(), align);
      s.space = Space::const_;
      s.address = kConstBase + off;
      std::vector<AddressFixup> addresses;
      std::vector<uint8_t> init = initial_bytes(d, bytes, addresses);
      k_.constants.push_back({d.name, s.address, init});
      for (AddressFixup& a : addresses) {
        a.variable = k_.constants.size() - 1;
        a.constant = true;
        fixups_.push_back(a);
      }
      constant_.resize(off);
      constant_.insert(constant_.end(), init.begin(), init.end());
      if (constant_.size() > (uint64_t{1} << 26)) fail(k_, d.loc, ".const variables exceed 64 MiB");
      break;
    }
    case StateSpace::shared:
      s.space = Space::shared;
      if (d.is_extern) {
        s.address = kExternTag;  // resolved to dynamic_shared_offset by finish()
        extern_align_ = std::max(extern_align_, align);
      } else {
        k_.static_shared = static_cast<uint32_t>(align_up(k_.static_shared, align));
        s.address = k_.static_shared;
        if (k_.static_shared + bytes > kWindowSize / 2) fail(k_, d.loc, "static .shared variables exceed 2 GiB");
        k_.static_shared += static_cast<uint32_t>(bytes);
      }
      if (!d.init.empty()) fail(k_, d.loc, ".shared variables cannot have initialisers");
      break;
    case StateSpace::local:
      s.space = Space::local;
      k_.local_bytes = static_cast<uint32_t>(align_up(k_.local_bytes, align));
      s.address = k_.local_bytes;
      k_.local_bytes += static_cast<uint32_t>(bytes);
      if (k_.local_bytes > (1u << 20)) fail(k_, d.loc, ".local variables exceed 1 MiB per thread");
      break;
    default: fail(k_, d.loc, "unexpected state space for a variable");
  }
  (scope ? *scope : module_symbols_)[d.name] = s;
}

uint32_t Resolver::add_function(const isa::Function& f) {
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

std::optional<Symbol> Resolver::lookup(std::string_view name) {
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

void Resolver::declare_reg(const isa::Declaration& d, Function& fn) {
  const auto type = isa::reg_type(d.type);
  if (!type) fail(k_, d.type_loc, fmt::format("Unknown register type '.{}'", d.type));
  Symbol s;
  s.kind = Symbol::Kind::reg;
  s.bits = static_cast<uint8_t>(type->kind == isa::RegKind::predicate ? 1 : type->bits);
  s.floating = type->kind == isa::RegKind::floating;
  if (s.bits > 64 || d.vector > 1)
    fail(k_, d.loc, fmt::format("registers of .{} (or vectors of them) are not supported", d.type));
  s.slot = fn.num_regs;
  s.count = d.count;
  const uint32_t n = d.count ? d.count : 1;
  if (fn.num_regs + n > (1u << 20)) fail(k_, d.loc, "more than 2^20 registers in one function");
  fn.num_regs += n;
  fn.reg_bits.insert(fn.reg_bits.end(), n, s.bits);
  for (uint32_t i = 0; i < n; ++i)
    fn.reg_names.push_back(d.count ? fmt::format("{}{}", d.name, i) : std::string(d.name));
  scopes_.back()[d.name] = s;
}

void Resolver::declare_params(const isa::Function& f, Function& fn) {
  auto add = [&](const isa::Declaration& d, std::vector<Param>& list, bool kernel) {
    if (d.space == StateSpace::reg) fail(k_, d.loc, ".reg parameters are not supported; use .param");
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

void Resolver::declare_frame_param(const isa::Declaration& d, Function& fn) {
  const uint64_t bytes = variable_bytes(d);
  const uint64_t align = std::max<uint64_t>(d.align, std::max(1u, type_bytes(d.type)));
  fn.param_bytes = static_cast<uint32_t>(align_up(fn.param_bytes, align));
  Symbol s;
  s.kind = Symbol::Kind::frame_param;
  s.address = fn.param_bytes;
  s.bytes = bytes;
  fn.param_bytes += static_cast<uint32_t>(bytes);
  scopes_.back()[d.name] = s;
}

void Resolver::begin_function(uint32_t index, uint32_t first_inst) {
  const isa::Function& f = *order_[index];
  cur_ = index;
  scopes_.assign(1, {});
  declare_params(f, k_.functions[index]);
  labels_.clear();
  uint32_t count = 0;
  for (const isa::BodyItem& item : f.body) {
    if (item.kind == isa::BodyItem::Kind::label) labels_[f.labels[item.index].name] = first_inst + count;
    if (item.kind == isa::BodyItem::Kind::instruction) ++count;
  }
}

void Resolver::close_scope() {
  if (scopes_.size() > 1) scopes_.pop_back();
}

void Resolver::declare(const isa::Declaration& d) {
  Function& fn = k_.functions[cur_];
  if (d.space == StateSpace::reg)
    declare_reg(d, fn);
  else if (d.space == StateSpace::param)
    declare_frame_param(d, fn);
  else if (d.space == StateSpace::global || d.space == StateSpace::const_)
    fail(k_, d.loc, ".global and .const variables inside a function are not supported");
  else
    place_variable(d, &scopes_.back());
}

std::optional<uint32_t> Resolver::label(std::string_view name) const {
  const auto it = labels_.find(name);
  if (it == labels_.end()) return std::nullopt;
  return it->second;
}

void Resolver::finish() {
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
  k_.constant = std::move(constant_);
}

}  // namespace ptxfu::kernel::loading
