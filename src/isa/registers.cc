#include "isa/registers.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "isa/opcodes.h"
#include "isa/table.h"

namespace ptxfu::isa {
namespace {

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$'; }

}  // namespace

std::optional<RegType> reg_type(std::string_view type) {
  const auto t = find_type(type);
  // Packs: .f16x2 and .bf16x2 only; no register is narrower than 8 bits (cvt.pack's .u4, .s2, ...).
  if (!t || (info(*t).lanes > 1 && !(is_float(*t) && info(*t).bits == 32)) || (info(*t).bits < 8 && *t != Type::pred))
    return std::nullopt;
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

namespace {

// The type an operand's value has: set's and cvt's sources are of the
// second type, and so is slct's c.
Type operand_type(const Instr& in, unsigned k) {
  if (k == 0) return in.type;
  if (in.row->shape == Shape::pack_int) return k == 3 ? in.type3 : in.type2;
  if (in.row->shape == Shape::convert || (in.row->shape == Shape::select && k == 3)) return in.type2;
  return in.type;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool check_operands(const Instr& in, const Statement& st, const RegisterTable* regs, Diagnostic& err) {
  const std::string ptxas_name = instruction_name(in.op, in.mods & in.row->allowed());
  const std::string mismatch = fmt::format("Arguments mismatch for instruction '{}'", ptxas_name);
  unsigned at = 0;  // the operand at hand, 0 the destination (ptxas's "Argument N")
  auto fail = [&](const Token& tok, std::string message) {
    err = {tok.column, std::move(message), tok.line};
    return false;
  };
  // mov's pack and unpack forms move bits: any register kind but a
  // predicate fits, on either side (measured, ptxas 13.0).
  const bool any_kind = in.row->shape == Shape::pack;
  // PTX lets cvt (like ld and st) take registers wider than its types
  // ("Operand Size Exceeding Instruction-Type Size"); ptxas agrees.
  // The packing, tf32, .satfinite and FP8/FP6/FP4 forms take exact widths,
  // cvt.pack wider registers everywhere (measured).
  const bool wider_ok =
      in.row->executor == Executor::convert &&
      (in.row->shape == Shape::pack_int || (in.num_src == 1 && info(in.type).lanes == 1 && info(in.type2).lanes == 1 &&
                                            in.type != Type::tf32 && !in.has(Mod::satfinite)));
  // A register name (or symbol) that must hold `bits` bits of kind `want`;
  // `only_bits`: a register declared with a bit-size type and no other.
  // Sets `seen` to the register's kind.
  auto check_name = [&](const Token& tok, std::string_view text, unsigned bits, RegKind want, bool only_bits,
                        RegKind* seen) {
    const char c0 = text.empty() ? '\0' : text[0];
    if (!(c0 == '%' || c0 == '_' || c0 == '$' || std::isalpha(static_cast<unsigned char>(c0))))
      return fail(tok, mismatch);
    if (!regs) return true;
    const auto reg = regs->lookup(text);
    if (!reg) {
      // The symbol is declared (check_module asked): a special register,
      // which only cvt converts here, or a variable (ptxas 13.0's words).
      if (c0 == '%' && is_special_register(text))
        return in.row->executor == Executor::convert && at > 0
                   ? true
                   : fail(tok, fmt::format("Special register argument not allowed for instruction '{}'", ptxas_name));
      return fail(tok, fmt::format("Argument {} of instruction '{}': must be register", at, ptxas_name));
    }
    if (seen) *seen = reg->kind;
    const bool pred = want == RegKind::predicate;
    const bool kind_ok = pred        ? reg->kind == RegKind::predicate
                         : only_bits ? reg->kind == RegKind::bits
                         : any_kind  ? reg->kind != RegKind::predicate
                                     : reg->kind == want || reg->kind == RegKind::bits;
    const bool width_ok = pred || (wider_ok ? reg->bits >= bits : reg->bits == bits);
    if (!width_ok || !kind_ok) return fail(tok, mismatch);
    return true;
  };
  // Immediates: integer literals for integer operands, predicate sources
  // (ptxas takes `1`) and lop3's LUT; float literals only for scalar
  // f32/f64 operands. Half and packed types take none; mov's scalar takes
  // the hex float spellings (0f..., 0d...) too.
  auto literal_ok = [&](std::string_view text, Operand kind, Type type, unsigned bits, bool is_dest) {
    const LiteralKind lit = classify_literal(text);
    const bool is_float = isa::is_float(type);
    if (is_dest || kind == Operand::random_bits || is_vector(kind)) return false;
    if (any_kind && lit == LiteralKind::floating)
      return text.size() > 2 && text[0] == '0' &&
             (text[1] == 'f' || text[1] == 'F' || text[1] == 'd' || text[1] == 'D');
    if (kind == Operand::imm || kind == Operand::pred || !is_float) return lit == LiteralKind::integer;
    return info(type).lanes == 1 && bits >= 32 && lit == LiteralKind::floating;
  };
  if (st.num_operands != in.row->num_src + 1u) return fail(st.operands[0], mismatch);
  unsigned value = 0;  // the first source value of the operand at hand
  for (unsigned k = 0; k < st.num_operands; ++k) {
    const Token& tok = st.operands[k];
    at = k;
    const bool is_dest = k == 0;
    const Operand kind = is_dest ? in.row->dest : in.row->src[k - 1];
    const bool is_pred = kind == Operand::pred || kind == Operand::pred_pair;
    const unsigned bits = is_dest ? dest_bits(in) : src_bits(in, value);
    if (!is_dest) value += elements(kind);
    // Every operand of a floating-point form (mixed precision included)
    // holds a floating value.
    const Type type = operand_type(in, k);
    const bool is_float = isa::is_float(type);
    const RegKind want = is_pred ? RegKind::predicate : is_float ? RegKind::floating : RegKind::integer;
    if (is_vector(kind) != (st.forms[k] == OperandForm::vector)) return fail(tok, mismatch);
    switch (st.forms[k]) {
      case OperandForm::pair: {  // p|q, or lop3's d|p
        if (!is_dest || (kind != Operand::pred_pair && kind != Operand::reg_pred))
          return fail(tok, (kind == Operand::reg || kind == Operand::pred) && is_dest
                               ? fmt::format("Predicate output not allowed for instruction '{}'", name(in.op))
                               : mismatch);
        const size_t bar = tok.text.find('|');
        const std::string_view first = trim(tok.text.substr(0, bar)), second = trim(tok.text.substr(bar + 1));
        if (!check_name(tok, first, bits, kind == Operand::reg_pred ? want : RegKind::predicate, false, nullptr) ||
            !check_name(tok, second, 1, RegKind::predicate, false, nullptr))
          return false;
        continue;
      }
      case OperandForm::negated:  // !%p: predicate sources only
        if (is_dest || kind != Operand::pred) return fail(tok, mismatch);
        if (!check_name(tok, trim(tok.text.substr(1)), 1, RegKind::predicate, false, nullptr)) return false;
        continue;
      case OperandForm::vector: {
        // {a, b, e, f}: each element a register of the element's width, or
        // (sources) an immediate; mov takes the sink '_' where some element
        // is a register. ptxas refuses elements of different types (int and
        // float; in cvt any two kinds).
        std::string_view e[4];
        if (vector_elements(tok.text, e, 4) != elements(kind)) return fail(tok, mismatch);
        bool any_reg = false, sink = false, has_int = false, has_float = false, has_bits = false;
        for (const std::string_view x : e) {
          if (x.empty()) continue;
          if (x == "_") {
            if (!any_kind) return fail(tok, "Sink '_' not allowed as a source operand");
            sink = true;
            continue;
          }
          if (classify_literal(x) != LiteralKind::none) {
            if (is_dest) return fail(tok, fmt::format("Result register required for instruction '{}'", name(in.op)));
            const LiteralKind lit = classify_literal(x);
            const bool ok =
                any_kind || !is_float ? lit == LiteralKind::integer : lit == LiteralKind::integer || bits >= 32;
            if (!ok) return fail(tok, mismatch);
            continue;
          }
          RegKind seen = RegKind::bits;
          if (!check_name(tok, x, bits, want, false, &seen)) return false;
          any_reg = true;
          has_int |= seen == RegKind::integer;
          has_float |= seen == RegKind::floating;
          has_bits |= seen == RegKind::bits;
        }
        if (sink && !any_reg)
          return fail(tok, (is_dest || std::all_of(e, e + elements(kind), [](std::string_view x) { return x == "_"; }))
                               ? "Unable to infer type of vector elements (assuming .b8)"
                               : mismatch);
        if ((has_int && has_float) || (!any_kind && has_bits + has_int + has_float > 1))
          return fail(tok, fmt::format("Vector with elements of different types are not allowed in {} instruction",
                                       name(in.op)));
        continue;
      }
      case OperandForm::plain: break;
      default: return fail(tok, mismatch);
    }
    if (kind == Operand::reg_pred)
      return fail(tok, fmt::format("Predicate output expected for instruction '{}'", name(in.op)));
    if (classify_literal(tok.text) != LiteralKind::none) {
      if (!literal_ok(tok.text, kind, type, bits, is_dest)) return fail(tok, mismatch);
      continue;
    }
    if (kind == Operand::imm) return fail(tok, mismatch);
    if (!check_name(tok, tok.text, bits, want, kind == Operand::random_bits, nullptr)) return false;
  }
  return true;
}

}  // namespace ptxfu::isa
