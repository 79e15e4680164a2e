#include "isa/registers.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "isa/table.h"

namespace ptxfu::isa {
namespace {

struct RegType {
  std::string_view name;
  unsigned bits;
};
constexpr RegType kRegTypes[] = {
    {"pred", 1},  {"b8", 8},    {"u8", 8},     {"s8", 8},     {"b16", 16},  {"u16", 16},
    {"s16", 16},  {"f16", 16},  {"bf16", 16},  {"b32", 32},   {"u32", 32},  {"s32", 32},
    {"f32", 32},  {"f16x2", 32}, {"bf16x2", 32}, {"b64", 64}, {"u64", 64},  {"s64", 64},
    {"f64", 64},  {"b128", 128},
};

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$';
}

}  // namespace

std::optional<unsigned> reg_type_bits(std::string_view type) {
  for (const auto& t : kRegTypes)
    if (t.name == type) return t.bits;
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
  const auto bits = reg_type_bits(text.substr(t0, i - t0));
  if (!bits) {
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
      ranges_[name] = {count, *bits};
    } else {
      names_[name] = *bits;
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

std::optional<unsigned> RegisterTable::width(std::string_view name) const {
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
    const LiteralKind lit = classify_literal(tok.text);
    if (lit != LiteralKind::none) {
      // Immediates: integers for integer operands; float literals only for
      // scalar f32/f64 operands. Half and packed types take no immediates.
      const bool float_operand = info(in.type).cls == TypeClass::floating &&
                                 !(in.row->shape == Shape::mixed && k != st.num_operands - 1);
      const bool packed = info(in.type).lanes > 1;
      const bool scalar_wide_float = float_operand && !packed && bits >= 32;
      const bool ok = !is_dest && (float_operand ? scalar_wide_float : lit == LiteralKind::integer);
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
    const auto w = regs->width(tok.text);
    if (!w) {
      err = {tok.column, fmt::format("Unknown symbol '{}'", tok.text)};
      return false;
    }
    if (*w != bits) {
      err = {tok.column, mismatch};
      return false;
    }
  }
  return true;
}

}  // namespace ptxfu::isa
