// One PTX instruction statement: guard, mnemonic and operands as written
// ("@!%p1 fma.rn.f32 %f1, %f2, %f3, %f4;"), and PTX immediates. Tokens are
// views into the source.
#pragma once
#include <cstdint>
#include <string_view>

#include "isa/decode.h"

namespace ptxfu::isa {

struct Token {
  std::string_view text;
  unsigned column = 0;  // 1-based
  unsigned line = 0;    // 1-based; 0 where the caller gave a single line
};

// How an operand is written.
enum class OperandForm : uint8_t {
  plain,        // a register, name or immediate: %r1, foo, -4, 0f3f800000
  negated,      // !%p1
  pair,         // %p1|%p2 (setp's two destinations)
  address,      // [%rd1+16], [name], [name+4]
  vector,       // {%r1, %r2}
  group,        // (%r1, %r2): call's argument lists
  indexed,      // [tex, {%r1, %r2}], [%rd1, {%r1}]: a texture, surface or tensormap and its coordinates
  vector_pair,  // {%f1, %f2, %f3, %f4}|%p: tex's texels and its residency predicate
};

inline constexpr unsigned kMaxOperands = 8;

struct Statement {
  Token guard;  // the predicate after '@', empty when unguarded
  bool guard_negated = false;
  Token mnemonic;
  Token operands[kMaxOperands];
  OperandForm forms[kMaxOperands] = {};
  unsigned num_operands = 0;
};

// Parses one statement without its trailing ';'. `column` is where `text`
// starts in the line.
bool parse_statement(std::string_view text, unsigned column, Statement& out, Diagnostic& err);

// The elements of a vector operand "{a, b, e, f}", trimmed: returns how many
// there are and stores the first `max` in `out`.
unsigned vector_elements(std::string_view text, std::string_view* out, unsigned max);

// The values a statement's operands hold, as decode() counts them: a vector
// operand gives one per element. `bad_vector` is the first vector whose size
// PTX has no vector of (not 1, 2 or 4: "Illegal vector size: 3"), or -1.
struct OperandValues {
  unsigned dest = 1;
  unsigned src = 0;
  int bad_vector = -1;
};
OperandValues operand_values(const Statement& st);

enum class LiteralKind : uint8_t { none, integer, floating };
// Classifies a PTX immediate: 123, -7, 0x1f, 0b101, 017, 0f3f800000,
// 0d3ff0000000000000, 1.5, 1e-3.
LiteralKind classify_literal(std::string_view text);

// The one reader of PTX literals (the loader's immediates, initialisers and
// address offsets; check classifies them above): the literal's bits in
// `bits` bits. Integers of any spelling wrap to the width; floating
// literals (0f, 0d, decimal) only where `floating` and bits >= 32, a 0d or
// decimal value converted to f32 by round to nearest even. False when
// `text` is no literal or a floating one where none may stand.
bool literal_bits(std::string_view text, unsigned bits, bool floating, uint64_t& out);

// Whether ptxas rejects the literal as "Constant overflow": an integer whose
// running value (modulo 2^64) has its top bit set before another digit is
// read, or a decimal float that is out of the double range (as strtod says).
// Measured on ptxas 13.0; integers wider than their operand are accepted.
bool literal_overflows(std::string_view text);

// Finds the first byte a PTX source may not contain (control characters
// other than tab, bytes >= 0x80). Returns npos when the line is clean.
size_t find_invalid_byte(std::string_view line);

}  // namespace ptxfu::isa
