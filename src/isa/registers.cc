#include "isa/registers.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "isa/table.h"

namespace ptxfu::isa {
namespace {


bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$';
}

}  // namespace

std::optional<RegType> reg_type(std::string_view type) {
  const auto t = find_type(type);
  if (!t || (info(*t).lanes > 1 && !(is_float(*t) && info(*t).bits == 32))) return std::nullopt;  // .f16x2 and .bf16x2 only
  switch (info(*t).cls) {
    case TypeClass::bits: return RegType{info(*t).bits, RegKind::bits};
    case TypeClass::floating: return RegType{info(*t).bits, RegKind::floating};
    case TypeClass::predicate: return RegType{1, RegKind::predicate};
    default: return RegType{info(*t).bits, RegKind::integer};
  }
}

bool RegisterTable::declare(std::string_view name, unsigned count, RegType type) {
  Frame& f = frames_.back();
  const std::string key(name);
  if (count > 0) return f.ranges.emplace(key, std::make_pair(count, type)).second;
  return f.names.emplace(key, type).second;
}

bool RegisterTable::declare(std::string_view text, unsigned column, Diagnostic& err) {
  size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  skip();
  if (i == text.size() || text[i] != '.') {
    err = {column + static_cast<unsigned>(i), "expected a register type after .reg"};
    return false;
  }
  const size_t t0 = ++i;
  while (i < text.size() && is_ident_char(text[i])) ++i;
  const auto type = reg_type(text.substr(t0, i - t0));
  if (!type) {
    err = {column + static_cast<unsigned>(t0 - 1), fmt::format("unknown register type '.{}'", text.substr(t0, i - t0))};
    return false;
  }
  while (true) {
    skip();
    const size_t n0 = i;
    while (i < text.size() && is_ident_char(text[i])) ++i;
    if (i == n0) {
      err = {column + static_cast<unsigned>(i), "expected a register name"};
      return false;
    }
    const std::string name(text.substr(n0, i - n0));
    if (i < text.size() && text[i] == '<') {
      const size_t c0 = ++i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      unsigned count = 0;
      const auto res = std::from_chars(text.data() + c0, text.data() + i, count);
      if (res.ec != std::errc() || i == text.size() || text[i] != '>' || count == 0) {
        err = {column + static_cast<unsigned>(c0), "expected a register count like %r<8>"};
        return false;
      }
      ++i;
      declare(name, count, *type);
    } else {
      declare(name, 0, *type);
    }
    skip();
    if (i == text.size()) return true;
    if (text[i] != ',') {
      err = {column + static_cast<unsigned>(i), "expected ',' or ';' in .reg declaration"};
      return false;
    }
    ++i;
  }
}

std::optional<RegType> RegisterTable::lookup(std::string_view name) const {
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  const std::string key(name);
  const std::string prefix(name.substr(0, digits));
  for (auto f = frames_.rbegin(); f != frames_.rend(); ++f) {
    if (auto it = f->names.find(key); it != f->names.end()) return it->second;
    if (digits == name.size() || digits == 0) continue;
    const auto it = f->ranges.find(prefix);
    if (it == f->ranges.end()) continue;
    unsigned index = 0;
    const auto res = std::from_chars(name.data() + digits, name.data() + name.size(), index);
    // %r<8> declares %r0..%r7; ptxas reads %r007 as %r7 too.
    if (res.ec == std::errc() && index < it->second.first) return it->second.second;
  }
  return std::nullopt;
}

bool check_operands(const Instr& in, const Statement& st, const RegisterTable* regs, Diagnostic& err) {
  const std::string mismatch = fmt::format("Arguments mismatch for instruction '{}'",
                                           instruction_name(in.op, in.mods & in.row->allowed()));
  for (unsigned k = 0; k < st.num_operands; ++k) {
    const Token& tok = st.operands[k];
    const bool is_dest = k == 0;
    const bool is_pred = (is_dest ? in.row->dest : in.row->src[k - 1]) == Operand::pred;
    const unsigned bits = is_dest ? dest_bits(in) : src_bits(in, k - 1);
    // Every operand of a floating-point form (mixed precision included)
    // holds a floating value.
    const bool is_float = isa::is_float(in.type);
    if (st.forms[k] != OperandForm::plain) {
      err = {tok.column, mismatch, tok.line};
      return false;
    }
    const LiteralKind lit = classify_literal(tok.text);
    if (lit != LiteralKind::none && is_pred) {
      err = {tok.column, mismatch, tok.line};
      return false;
    }
    if (lit != LiteralKind::none) {
      // Immediates: integer literals for integer operands; float literals
      // only for scalar f32/f64 operands. Half and packed types take none.
      const bool scalar_wide_float = is_float && info(in.type).lanes == 1 && bits >= 32;
      const bool ok = !is_dest && (is_float ? scalar_wide_float && lit == LiteralKind::floating
                                            : lit == LiteralKind::integer);
      if (!ok) {
        err = {tok.column, mismatch, tok.line};
        return false;
      }
      continue;
    }
    const char c0 = tok.text[0];
    if (!(c0 == '%' || c0 == '_' || c0 == '$' || std::isalpha(static_cast<unsigned char>(c0)))) {
      err = {tok.column, mismatch, tok.line};
      return false;
    }
    if (!regs) continue;
    const auto reg = regs->lookup(tok.text);
    if (!reg) {
      err = {tok.column, fmt::format("Unknown symbol '{}'", tok.text), tok.line};
      return false;
    }
    const RegKind want = is_pred ? RegKind::predicate : is_float ? RegKind::floating : RegKind::integer;
    const bool kind_ok = reg->kind == want || (reg->kind == RegKind::bits && !is_pred);
    if (reg->bits != bits || !kind_ok) {
      err = {tok.column, mismatch, tok.line};
      return false;
    }
  }
  return true;
}

}  // namespace ptxfu::isa
