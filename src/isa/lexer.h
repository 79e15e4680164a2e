// Tokens of PTX source text, with their lines and columns. Comments are
// dropped; a word keeps its dots ("fma.rn.f32", ".reg", "%tid.x").
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxfu::isa {

struct SourceLoc {
  unsigned line = 0;    // 1-based
  unsigned column = 0;  // 1-based
};

enum class TokKind : uint8_t {
  word,    // identifiers, opcodes, directives, registers: [A-Za-z_$%.][A-Za-z0-9_$%.]*, with "::" inside
  number,  // 12, 0x1f, 0f3f800000, 1.5e-3 (a leading '-' is a separate punct)
  string,  // "..." including the quotes
  punct,   // one of { } ( ) [ ] , ; : @ ! + - < > = |
  end,
};

struct Lexeme {
  TokKind kind = TokKind::end;
  std::string_view text;
  SourceLoc loc;

  bool is(char c) const { return kind == TokKind::punct && text[0] == c; }
  bool is_word(std::string_view w) const { return kind == TokKind::word && text == w; }
  bool is_directive() const { return kind == TokKind::word && text[0] == '.'; }
};

struct LexError {
  SourceLoc loc;
  std::string message;
};

// Tokenises `text` (kept alive by the caller: lexemes are views into it).
// Lines longer than `max_line` bytes and bytes that PTX text may not hold are
// reported in `errors` and skipped. The result always ends with an `end`
// lexeme.
std::vector<Lexeme> lex(std::string_view text, size_t max_line, std::vector<LexError>& errors);

}  // namespace ptxfu::isa
