#include "isa/statement.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

namespace ptxfu::isa {
namespace {

bool all_of(std::string_view s, int (*pred)(int)) {
  if (s.empty()) return false;
  for (char c : s)
    if (!pred(static_cast<unsigned char>(c))) return false;
  return true;
}

int is_binary_digit(int c) { return c == '0' || c == '1'; }
int is_octal_digit(int c) { return c >= '0' && c <= '7'; }

}  // namespace

size_t find_invalid_byte(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t' && c != '\r') || c >= 0x7f) return i;
  }
  return std::string_view::npos;
}

LiteralKind classify_literal(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s.size() > 1 && s.back() == 'U') s.remove_suffix(1);  // PTX unsigned suffix
  if (s.size() > 2 && s[0] == '0') {
    const char p = static_cast<char>(std::tolower(static_cast<unsigned char>(s[1])));
    const std::string_view digits = s.substr(2);
    if (p == 'x' && all_of(digits, std::isxdigit)) return LiteralKind::integer;
    if (p == 'b' && all_of(digits, is_binary_digit)) return LiteralKind::integer;
    if (p == 'f' && digits.size() == 8 && all_of(digits, std::isxdigit)) return LiteralKind::floating;
    if (p == 'd' && digits.size() == 16 && all_of(digits, std::isxdigit)) return LiteralKind::floating;
  }
  if (s.size() > 1 && s[0] == '0' && all_of(s.substr(1), is_octal_digit)) return LiteralKind::integer;
  if (all_of(s, std::isdigit)) return LiteralKind::integer;
  // Decimal floating point: digits with a '.', an exponent, or both.
  size_t i = 0;
  bool digits = false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, digits = true;
  bool dot = false;
  if (i < s.size() && s[i] == '.') {
    dot = true;
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, digits = true;
  }
  bool exponent = false;
  if (digits && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    const size_t start = j;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == start) return LiteralKind::none;
    exponent = true;
    i = j;
  }
  if (digits && i == s.size() && (dot || exponent)) return LiteralKind::floating;
  return LiteralKind::none;
}

bool literal_overflows(std::string_view s) {
  const LiteralKind kind = classify_literal(s);
  if (kind == LiteralKind::none) return false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (kind == LiteralKind::floating) {
    if (s.size() > 1 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) return false;
    const std::string text(s);
    errno = 0;
    const double v = std::strtod(text.c_str(), nullptr);
    return errno == ERANGE || (v != 0 && std::fpclassify(v) == FP_SUBNORMAL);
  }
  if (s.size() > 1 && s.back() == 'U') s.remove_suffix(1);
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, s.remove_prefix(2);
  else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
    base = 2, s.remove_prefix(2);
  else if (s.size() > 1 && s[0] == '0')
    base = 8, s.remove_prefix(1);
  uint64_t v = 0;
  for (char c : s) {
    if (v >> 63) return true;
    const unsigned digit = std::isdigit(static_cast<unsigned char>(c))
                               ? static_cast<unsigned>(c - '0')
                               : static_cast<unsigned>(std::tolower(c) - 'a' + 10);
    v = v * base + digit;
  }
  return false;
}

unsigned vector_elements(std::string_view text, std::string_view* out, unsigned max) {
  if (!text.empty() && text.front() == '{') text.remove_prefix(1);
  if (!text.empty() && text.back() == '}') text.remove_suffix(1);
  unsigned n = 0;
  while (true) {
    const size_t comma = text.find(',');
    std::string_view e = text.substr(0, comma);
    while (!e.empty() && (e.front() == ' ' || e.front() == '\t')) e.remove_prefix(1);
    while (!e.empty() && (e.back() == ' ' || e.back() == '\t')) e.remove_suffix(1);
    if (n < max) out[n] = e;
    ++n;
    if (comma == std::string_view::npos) return n;
    text.remove_prefix(comma + 1);
  }
}

OperandValues operand_values(const Statement& st) {
  OperandValues v;
  for (unsigned k = 0; k < st.num_operands; ++k) {
    unsigned n = 1;
    if (st.forms[k] == OperandForm::vector) {
      n = vector_elements(st.operands[k].text, nullptr, 0);
      if (n != 1 && n != 2 && n != 4 && v.bad_vector < 0) v.bad_vector = static_cast<int>(k);
    }
    if (k == 0)
      v.dest = n;
    else
      v.src += n;
  }
  return v;
}

bool literal_bits(std::string_view text, unsigned bits, bool floating, uint64_t& out) {
  const LiteralKind kind = classify_literal(text);
  const std::string s(text);
  if (kind == LiteralKind::none) return false;
  if (kind == LiteralKind::floating) {
    if (!floating || bits < 32) return false;
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D');
    double v;
    if (hex && (s[1] == 'f' || s[1] == 'F')) {
      const uint32_t u = static_cast<uint32_t>(std::strtoull(s.c_str() + 2, nullptr, 16));
      if (bits == 32) {
        out = u;
        return true;
      }
      float f;
      std::memcpy(&f, &u, 4);
      v = f;  // exact
    } else if (hex) {
      const uint64_t u = std::strtoull(s.c_str() + 2, nullptr, 16);
      if (bits == 64) {
        out = u;
        return true;
      }
      std::memcpy(&v, &u, 8);
    } else {
      v = std::strtod(s.c_str(), nullptr);
    }
    if (bits == 64) {
      std::memcpy(&out, &v, 8);
    } else {
      const float f = static_cast<float>(v);  // IEEE round to nearest even
      uint32_t u;
      std::memcpy(&u, &f, 4);
      out = u;
    }
    return true;
  }
  const bool negative = s[0] == '-';
  const char* p = s.c_str() + (negative || s[0] == '+' ? 1 : 0);
  int base = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    base = 16;
    p += 2;
  } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
    base = 2;
    p += 2;
  } else if (p[0] == '0' && p[1]) {
    base = 8;
    p += 1;
  }
  const unsigned long long v = std::strtoull(p, nullptr, base);
  out = (negative ? ~uint64_t{v} + 1 : uint64_t{v}) & (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
  return true;
}

}  // namespace ptxfu::isa
