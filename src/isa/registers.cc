#include "isa/registers.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "isa/table.h"

namespace ptxfu::isa {
namespace {

struct RegTypeRow {
  std::string_view name;
  RegType type;
};
constexpr RegKind B = RegKind::bits, I = RegKind::integer, F = RegKind::floating;
constexpr RegTypeRow kRegTypes[] = {
    {"pred", {1, RegKind::predicate}}, {"b8", {8, B}},     {"u8", {8, I}},       {"s8", {8, I}},
    {"b16", {16, B}},   {"u16", {16, I}},   {"s16", {16, I}},     {"f16", {16, F}},
    {"bf16", {16, F}},  {"b32", {32, B}},   {"u32", {32, I}},     {"s32", {32, I}},
    {"f32", {32, F}},   {"f16x2", {32, F}}, {"bf16x2", {32, F}},  {"b64", {64, B}},
    {"u64", {64, I}},   {"s64", {64, I}},   {"f64", {64, F}},     {"b128", {128, B}},
};

// Every operand of a floating-point form (mixed precision included) holds a
// floating value.
bool is_float_form(const Instr& in) { return info(in.type).cls == TypeClass::floating; }

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$';
}

}  // namespace

std::optional<RegType> reg_type(std::string_view type) {
  for (const auto& t : kRegTypes)
    if (t.name == type) return t.type;
  return std::nullopt;
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
      ranges_[name] = {count, *type};
    } else {
      names_[name] = *type;
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
  if (auto it = names_.find(std::string(name)); it != names_.end()) return it->second;
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  if (digits == name.size() || digits == 0) return std::nullopt;
  const auto it = ranges_.find(std::string(name.substr(0, digits)));
  if (it == ranges_.end()) return std::nullopt;
  unsigned index = 0;
  std::from_chars(name.data() + digits, name.data() + name.size(), index);
  if (index >= it->second.first) return std::nullopt;
  return it->second.second;
}

bool check_operands(const Instr& in, const Statement& st, const RegisterTable* regs, Diagnostic& err) {
  const std::string mismatch = fmt::format("Arguments mismatch for instruction '{}'", name(in.op));
  for (unsigned k = 0; k < st.num_operands; ++k) {
    const Token& tok = st.operands[k];
    const bool is_dest = k == 0;
    const unsigned bits = is_dest ? dest_bits(in) : src_bits(in, k - 1);
    const bool is_float = is_float_form(in);
    const LiteralKind lit = classify_literal(tok.text);
    if (lit != LiteralKind::none) {
      // Immediates: integer literals for integer operands; float literals
      // only for scalar f32/f64 operands. Half and packed types take none.
      const bool scalar_wide_float = is_float && info(in.type).lanes == 1 && bits >= 32;
      const bool ok = !is_dest && (is_float ? scalar_wide_float && lit == LiteralKind::floating
                                            : lit == LiteralKind::integer);
      if (!ok) {
        err = {tok.column, mismatch};
        return false;
      }
      continue;
    }
    const char c0 = tok.text[0];
    if (!(c0 == '%' || c0 == '_' || c0 == '$' || std::isalpha(static_cast<unsigned char>(c0)))) {
      err = {tok.column, mismatch};
      return false;
    }
    if (!regs) continue;
    const auto reg = regs->lookup(tok.text);
    if (!reg) {
      err = {tok.column, fmt::format("Unknown symbol '{}'", tok.text)};
      return false;
    }
    const bool kind_ok = reg->kind == RegKind::bits ||
                         (reg->kind == (is_float ? RegKind::floating : RegKind::integer));
    if (reg->bits != bits || !kind_ok) {
      err = {tok.column, mismatch};
      return false;
    }
  }
  return true;
}

}  // namespace ptxfu::isa
