#include "isa/lexer.h"

#include <fmt/format.h>

namespace ptxfu::isa {
namespace {

bool word_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' || c == '.';
}
bool digit(char c) { return c >= '0' && c <= '9'; }
bool word_char(char c) { return word_start(c) || digit(c); }
// "::" at `i` inside a word, followed by a word character ("shared::cta").
bool qualifier_colons(std::string_view s, size_t i) {
  return i + 2 < s.size() && s[i] == ':' && s[i + 1] == ':' && word_char(s[i + 2]) && s[i + 2] != '.' &&
         s[i + 2] != '%';
}
bool punct(char c) {
  switch (c) {
    case '{':
    case '}':
    case '(':
    case ')':
    case '[':
    case ']':
    case ',':
    case ';':
    case ':':
    case '@':
    case '!':
    case '+':
    case '-':
    case '<':
    case '>':
    case '=':
    case '|': return true;
    default: return false;
  }
}

}  // namespace

std::vector<Lexeme> lex(std::string_view s, size_t max_line, std::vector<LexError>& errors) {
  std::vector<Lexeme> out;
  out.reserve(s.size() / 4 + 1);  // nvcc text: about one lexeme per 4.6 bytes
  unsigned line = 1;
  size_t line_start = 0;
  size_t i = 0;
  auto loc = [&](size_t pos) { return SourceLoc{line, static_cast<unsigned>(pos - line_start) + 1}; };
  auto new_line = [&](size_t newline_pos) {
    ++line;
    line_start = newline_pos + 1;
    const size_t next = s.find('\n', line_start);
    const size_t length = (next == std::string_view::npos ? s.size() : next) - line_start;
    if (length > max_line) {  // report and skip the whole line
      errors.push_back({{line, 1}, fmt::format("line is {} bytes long; the limit is {}", length, max_line)});
      return next == std::string_view::npos ? s.size() : next;
    }
    return line_start;
  };
  // ptxas refuses bytes that are not ASCII even in a comment, once each.
  auto non_ascii = [&](size_t pos) {
    if (static_cast<unsigned char>(s[pos]) < 0x80) return false;
    errors.push_back({loc(pos), fmt::format("Unexpected non-ASCII character encountered on line {}", line)});
    return true;
  };
  {  // the first line's length
    const size_t next = s.find('\n');
    const size_t length = next == std::string_view::npos ? s.size() : next;
    if (length > max_line) {
      errors.push_back({{1, 1}, fmt::format("line is {} bytes long; the limit is {}", length, max_line)});
      i = length;
    }
  }
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      i = new_line(i);
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      bool reported = false;
      for (; i < s.size() && s[i] != '\n'; ++i) reported = reported || non_ascii(i);
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const SourceLoc start = loc(i);
      i += 2;
      bool reported = false;
      while (i < s.size() && !(s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/')) {
        if (s[i] == '\n') {
          const size_t resume = new_line(i);
          i = resume > i ? resume : i + 1;
        } else {
          reported = reported || non_ascii(i);
          ++i;
        }
      }
      if (i >= s.size()) {
        errors.push_back({start, "unterminated comment"});
        break;
      }
      i += 2;
      continue;
    }
    const size_t start = i;
    TokKind kind;
    if (word_start(c)) {
      kind = TokKind::word;
      ++i;
      // A directive or type ends at the next dot (".reg.b32" is ".reg" ".b32");
      // other words keep theirs ("fma.rn.f32", "%tid.x"). A "::" between word
      // characters belongs to the word: PTX's qualifiers ("ld.shared::cta",
      // ".L2::cache_hint"); ptxas takes no space around it.
      while (i < s.size()) {
        if (word_char(s[i]) && !(c == '.' && s[i] == '.')) {
          ++i;
        } else if (qualifier_colons(s, i)) {
          i += 2;
        } else {
          break;
        }
      }
    } else if (digit(c)) {
      kind = TokKind::number;
      const bool prefixed =
          c == '0' && i + 1 < s.size() && std::string_view("xXfFdDbB").find(s[i + 1]) != std::string_view::npos;
      while (i < s.size()) {
        const char d = s[i];
        if (word_char(d) && d != '%' && d != '$') {
          ++i;
        } else if ((d == '+' || d == '-') && !prefixed && (s[i - 1] == 'e' || s[i - 1] == 'E')) {
          ++i;  // the exponent sign of a decimal float
        } else {
          break;
        }
      }
    } else if (c == '"') {
      kind = TokKind::string;
      ++i;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      if (i >= s.size() || s[i] != '"') {
        errors.push_back({loc(start), "unterminated string"});
        continue;
      }
      ++i;
    } else if (punct(c)) {
      kind = TokKind::punct;
      ++i;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      errors.push_back({loc(i), byte >= 0x20 && byte < 0x7f
                                    ? fmt::format("unexpected character '{}'", c)
                                    : fmt::format("invalid byte 0x{:02x}: PTX source is ASCII text", byte)});
      ++i;
      continue;
    }
    out.push_back({kind, s.substr(start, i - start), loc(start)});
  }
  out.push_back({TokKind::end, {}, loc(s.size())});
  return out;
}

}  // namespace ptxfu::isa
