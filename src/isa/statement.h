// Lexing of one PTX statement ("@%p fma.rn.f32 %f1, %f2, %f3, %f4;") and of
// operand literals. No allocation: tokens are views into the line.
#pragma once
#include <cstdint>
#include <string_view>

#include "isa/decode.h"

namespace ptxfu::isa {

struct Token {
  std::string_view text;
  unsigned column = 0;  // 1-based
};

inline constexpr unsigned kMaxOperands = 8;

struct Statement {
  Token mnemonic;
  Token operands[kMaxOperands];
  unsigned num_operands = 0;
};

// Parses one statement without its trailing ';'. `column` is where `text`
// starts in the line.
bool parse_statement(std::string_view text, unsigned column, Statement& out, Diagnostic& err);

enum class LiteralKind : uint8_t { none, integer, floating };
// Classifies a PTX immediate: 123, -7, 0x1f, 0b101, 017, 0f3f800000,
// 0d3ff0000000000000, 1.5, 1e-3.
LiteralKind classify_literal(std::string_view text);

// Finds the first byte a PTX source may not contain (control characters
// other than tab, bytes >= 0x80). Returns npos when the line is clean.
size_t find_invalid_byte(std::string_view line);

}  // namespace ptxfu::isa
