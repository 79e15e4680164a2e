#include "models/program.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "isa/opcodes.h"
#include "isa/registers.h"
#include "isa/source.h"
#include "isa/statement.h"
#include "isa/table.h"
#include "models/text_file.h"

namespace ptxfu::models {
namespace {

class Loader {
 public:
  Loader(const std::string& name, const isa::Capabilities& caps) : caps_(caps) { program_.name = name; }

  void line(std::string_view text, unsigned line_no) {
    line_ = line_no;
    if (const size_t bad = isa::find_invalid_byte(text); bad != std::string_view::npos)
      fail(static_cast<unsigned>(bad) + 1,
           fmt::format("invalid byte 0x{:02x}: PTX source is ASCII text", static_cast<unsigned char>(text[bad])));
    for (const isa::SourcePiece& p : splitter_.split(text)) {
      if (p.is_directive()) {
        directive(p.text, p.column);
      } else if (!p.terminated) {
        fail(p.column + static_cast<unsigned>(p.text.size()), "expected ';' at the end of the statement");
      } else {
        statement(p.text, p.column);
      }
    }
  }

  Program finish() {
    if (program_.code.empty()) throw ProgramError(program_.name + ": no instructions to simulate");
    return std::move(program_);
  }

 private:
  [[noreturn]] void fail(unsigned column, const std::string& message) const {
    throw ProgramError(fmt::format("{}:{}:{}: {}", program_.name, line_, column, message));
  }

  void directive(std::string_view text, unsigned column) {
    for (std::string_view kernel : {".entry", ".func", ".visible", ".extern", ".weak"})
      if (text.rfind(kernel, 0) == 0)
        fail(column, fmt::format("'{}': ptxfu sim runs straight-line programs (.reg, mov and the instructions of the "
                                 "arithmetic table), not kernels yet; `ptxfu check` reads whole modules",
                                 text.substr(0, text.find_first_of(" \t("))));
    if (text.rfind(".reg", 0) != 0 || (text.size() > 4 && text[4] != ' ' && text[4] != '\t')) return;
    isa::Diagnostic d;
    const std::string_view rest = text.substr(4);
    if (!regs_.declare(rest, column + 4, d)) fail(d.column, d.message);
    // Materialise the declared names in declaration order.
    declare_names(rest, column + 4);
  }

  // Registers are stored per warp by index; expand %r<N> ranges.
  void declare_names(std::string_view text, unsigned column) {
    const size_t dot = text.find('.');
    size_t i = text.find_first_of(" \t", dot);
    const auto type = isa::reg_type(text.substr(dot + 1, i - dot - 1));
    while (i < text.size()) {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == ',')) ++i;
      const size_t n0 = i;
      while (i < text.size() && text[i] != ',' && text[i] != '<' && text[i] != ' ' && text[i] != '\t') ++i;
      if (i == n0) break;
      const std::string base(text.substr(n0, i - n0));
      if (i < text.size() && text[i] == '<') {
        const unsigned count = static_cast<unsigned>(std::strtoul(text.data() + i + 1, nullptr, 10));
        if (count > 4096)
          fail(column + static_cast<unsigned>(i),
               fmt::format("{} registers is more than the 4096 ptxfu allows", count));
        for (unsigned k = 0; k < count; ++k) add_register(base + std::to_string(k), type->bits);
        i = text.find('>', i) + 1;
      } else {
        add_register(base, type->bits);
      }
    }
  }

  void add_register(const std::string& name, unsigned bits) {
    if (index_.count(name)) return;
    index_[name] = static_cast<uint32_t>(program_.registers.size());
    program_.registers.push_back({name, bits});
  }

  uint32_t reg_index(const isa::Token& tok) const {
    const auto it = index_.find(std::string(tok.text));
    if (it == index_.end()) fail(tok.column, fmt::format("Unknown symbol '{}'", tok.text));
    return it->second;
  }

  static uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

  // The bits of an immediate operand of `bits` width; float literals only for
  // floating operands.
  uint64_t immediate(const isa::Token& tok, unsigned bits, bool floating) const {
    const std::string s(tok.text);
    const isa::LiteralKind kind = isa::classify_literal(tok.text);
    if (kind == isa::LiteralKind::floating) {
      if (s.size() > 2 && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D') && s[0] == '0')
        return std::strtoull(s.c_str() + 2, nullptr, 16) & mask(bits);
      if (bits == 32) {
        const float f = std::strtof(s.c_str(), nullptr);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        return u;
      }
      const double d = std::strtod(s.c_str(), nullptr);
      uint64_t u;
      std::memcpy(&u, &d, 8);
      return u;
    }
    if (floating && bits < 32) fail(tok.column, "half-precision operands take no immediates");
    const bool negative = !s.empty() && s[0] == '-';
    const char* p = s.c_str() + (negative || s[0] == '+' ? 1 : 0);
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
      base = 16, p += 2;
    else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
      base = 2, p += 2;
    else if (p[0] == '0' && p[1])
      base = 8, p += 1;
    errno = 0;
    const unsigned long long v = std::strtoull(p, nullptr, base);
    if (errno == ERANGE) fail(tok.column, fmt::format("immediate '{}' does not fit in 64 bits", tok.text));
    return (negative ? ~v + 1 : v) & mask(bits);
  }

  // A source operand of `bits` width: a special register, an immediate or a
  // register.
  SourceOperand operand(const isa::Token& tok, unsigned bits, bool floating) const {
    for (const SpecialRow& r : kSpecials)
      if (r.name == tok.text) {
        SourceOperand o{SourceOperand::Kind::special};
        o.special = r.reg;
        return o;
      }
    if (isa::is_special_register(tok.text))
      fail(tok.column, fmt::format("special register '{}' is not supported by ptxfu sim", tok.text));
    if (isa::classify_literal(tok.text) != isa::LiteralKind::none)
      return {SourceOperand::Kind::imm, 0, immediate(tok, bits, floating)};
    return {SourceOperand::Kind::reg, reg_index(tok), 0};
  }

  void statement(std::string_view text, unsigned column) {
    isa::Statement st;
    isa::Diagnostic d;
    if (!isa::parse_statement(text, column, st, d)) fail(d.column, d.message);
    const std::string_view mnemonic = st.mnemonic.text;
    const std::string_view op = mnemonic.substr(0, mnemonic.find('.'));
    if (op == "ret" || op == "exit") return;
    ProgramInstr pi;
    pi.text = std::string(text);
    pi.line = line_;
    if (!st.guard.text.empty())
      fail(st.guard.column, fmt::format("guarded instructions ('@{}{}') are not supported by ptxfu sim yet: it would "
                                        "run them unguarded",
                                        st.guard_negated ? "!" : "", st.guard.text));
    if (op == "mov") return mov(st, pi);
    for (unsigned k = 0; k < st.num_operands; ++k)
      if (st.forms[k] == isa::OperandForm::vector)
        fail(st.operands[k].column,
             fmt::format("'{}': vector operands of arithmetic instructions (cvt's x4 forms) are not supported by "
                         "ptxfu sim yet",
                         mnemonic));
    if (isa::is_other_instruction(op))
      fail(st.mnemonic.column, fmt::format("'{}' is not supported by ptxfu sim: programs are straight-line arithmetic "
                                           "(.reg, mov and the instructions of the arithmetic table)",
                                           mnemonic));
    if (st.num_operands == 0) fail(st.mnemonic.column, fmt::format("Arguments mismatch for instruction '{}'", op));
    if (!isa::check_form(mnemonic, st.num_operands - 1, caps_, st.mnemonic.column, pi.instr, d) ||
        !isa::check_operands(pi.instr, st, &regs_, d))
      fail(d.column, d.message);
    pi.kind = InstrKind::arithmetic;
    pi.reads_carry = isa::reads_carry(pi.instr);
    pi.writes_carry = isa::writes_carry(pi.instr);
    const isa::FormRow& row = *pi.instr.row;
    const bool predicates =
        row.dest != isa::Operand::reg ||
        std::any_of(row.src.begin(), row.src.end(), [](isa::Operand o) { return o == isa::Operand::pred; });
    if (predicates)
      fail(st.mnemonic.column, fmt::format("'{}' reads or writes predicates; ptxfu sim does not model predicate "
                                           "registers yet",
                                           mnemonic));
    if (st.num_operands - 1 > std::size(pi.src))
      fail(st.mnemonic.column, fmt::format("'{}' has {} sources; ptxfu sim takes at most {}", mnemonic,
                                           st.num_operands - 1, std::size(pi.src)));
    const bool floating = isa::info(pi.instr.type).cls == isa::TypeClass::floating;
    pi.dest[0] = reg_index(st.operands[0]);
    pi.num_src = st.num_operands - 1;
    for (unsigned k = 0; k < pi.num_src; ++k)
      pi.src[k] = operand(st.operands[k + 1], isa::src_bits(pi.instr, k), floating);
    program_.code.push_back(std::move(pi));
  }

  [[noreturn]] void mov_mismatch(unsigned column) const { fail(column, "Arguments mismatch for instruction 'mov'"); }

  // The elements of a vector operand "{%a, %b}" ('_' where `sinks`).
  std::vector<isa::Token> elements(const isa::Token& vec) const {
    std::vector<isa::Token> out;
    const std::string_view text = vec.text.substr(1, vec.text.size() - 2);
    size_t i = 0;
    while (i <= text.size()) {
      size_t e = text.find(',', i);
      if (e == std::string_view::npos) e = text.size();
      size_t b = i;
      while (b < e && (text[b] == ' ' || text[b] == '\t')) ++b;
      size_t end = e;
      while (end > b && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
      out.push_back({text.substr(b, end - b), vec.column + 1 + static_cast<unsigned>(b)});
      i = e + 1;
    }
    return out;
  }

  // mov: d, a (a register, immediate or special register); d, {a, b[, c,
  // d]} (a pack, first element lowest); {a, b[, c, d]}, a (an unpack, '_'
  // for elements nobody needs). The types: .pred, or 16, 32 and 64 bits.
  void mov(const isa::Statement& st, ProgramInstr& pi) {
    const std::string_view m = st.mnemonic.text;
    const size_t dot = m.find('.');
    const auto type = dot == std::string_view::npos ? std::nullopt : isa::reg_type(m.substr(dot + 1));
    const bool predicate = type && type->kind == isa::RegKind::predicate;
    if (!type || (!predicate && (type->bits < 16 || type->bits > 64)))
      fail(
          st.mnemonic.column,
          fmt::format("unsupported mov type in '{}' (expected .pred, .b16/.b32/.b64 or a typed 16/32/64-bit form)", m));
    if (st.num_operands != 2) fail(st.mnemonic.column, "Arguments mismatch for instruction 'mov'");
    pi.kind = InstrKind::mov;
    pi.mov_bits = type->bits;
    const bool pack = st.forms[1] == isa::OperandForm::vector, unpack = st.forms[0] == isa::OperandForm::vector;
    const bool scalar_operands = (st.forms[0] == isa::OperandForm::plain || unpack) &&
                                 (st.forms[1] == isa::OperandForm::plain || pack) && !(pack && unpack);
    if (!scalar_operands) mov_mismatch(st.operands[unpack ? 1 : 0].column);
    if ((pack || unpack) && type->kind != isa::RegKind::bits)
      fail(st.mnemonic.column, fmt::format("a vector mov packs bit-size types (.b16, .b32, .b64), not '{}'", m));
    auto register_of = [&](const isa::Token& tok, unsigned bits) {
      const uint32_t r = reg_index(tok);
      if (program_.registers[r].bits != bits) mov_mismatch(tok.column);
      return r;
    };
    if (unpack) {
      const std::vector<isa::Token> parts = elements(st.operands[0]);
      if (parts.size() != 2 && parts.size() != 4) mov_mismatch(st.operands[0].column);
      pi.num_dest = static_cast<unsigned>(parts.size());
      for (unsigned k = 0; k < pi.num_dest; ++k)
        pi.dest[k] = parts[k].text == "_" ? kSink : register_of(parts[k], pi.mov_bits / pi.num_dest);
    } else {
      pi.dest[0] = register_of(st.operands[0], pi.mov_bits);
    }
    if (pack) {
      const std::vector<isa::Token> parts = elements(st.operands[1]);
      if (parts.size() != 2 && parts.size() != 4) mov_mismatch(st.operands[1].column);
      pi.num_src = static_cast<unsigned>(parts.size());
      for (unsigned k = 0; k < pi.num_src; ++k)
        pi.src[k] = {SourceOperand::Kind::reg, register_of(parts[k], pi.mov_bits / pi.num_src), 0};
    } else {
      pi.num_src = 1;
      const isa::Token& a = st.operands[1];
      pi.src[0] = operand(a, pi.mov_bits, type->kind == isa::RegKind::floating);
      if (pi.src[0].kind == SourceOperand::Kind::reg) register_of(a, pi.mov_bits);
      if (pi.src[0].kind == SourceOperand::Kind::special)
        for (const SpecialRow& r : kSpecials)
          if (r.reg == pi.src[0].special && r.bits != pi.mov_bits) mov_mismatch(a.column);
    }
    program_.code.push_back(std::move(pi));
  }

  const isa::Capabilities& caps_;
  Program program_;
  isa::SourceSplitter splitter_;
  isa::RegisterTable regs_;
  std::unordered_map<std::string, uint32_t> index_;
  unsigned line_ = 0;
};

}  // namespace

Program load_program(const std::string& text, const std::string& name, const isa::Capabilities& caps) {
  Loader loader(name, caps);
  std::istringstream in(text);
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line)) {
    if (line.size() > (1u << 16))
      throw ProgramError(fmt::format("{}:{}:1: line is {} bytes long; the limit is 65536", name, n + 1, line.size()));
    loader.line(line, ++n);
  }
  return loader.finish();
}

Program load_program_file(const std::string& path, const isa::Capabilities& caps) {
  std::string text;
  const ReadStatus status = read_text_file(path, kMaxProgramBytes, text);
  if (status == ReadStatus::cannot_open) throw ProgramError(path + ": cannot open program");
  if (status == ReadStatus::too_large)
    throw ProgramError(path + ": larger than " + std::to_string(kMaxProgramBytes) + " bytes: not a program");
  return load_program(text, path, caps);
}

}  // namespace ptxfu::models
