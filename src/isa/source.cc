#include "isa/source.h"

namespace ptxfu::isa {
namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

const std::vector<SourcePiece>& SourceSplitter::split(std::string_view line) {
  // Comments become spaces so that columns stay where the user sees them.
  code_.assign(line);
  for (size_t i = 0; i < code_.size(); ++i) {
    if (in_block_comment_) {
      if (code_.compare(i, 2, "*/") == 0) {
        code_[i] = code_[i + 1] = ' ';
        ++i;
        in_block_comment_ = false;
      } else {
        code_[i] = ' ';
      }
    } else if (code_.compare(i, 2, "//") == 0) {
      code_.resize(i);
      break;
    } else if (code_.compare(i, 2, "/*") == 0) {
      code_[i] = code_[i + 1] = ' ';
      ++i;
      in_block_comment_ = true;
    }
  }
  pieces_.clear();
  const std::string_view code = code_;
  size_t start = 0;
  while (start <= code.size()) {
    const size_t semi = code.find(';', start);
    const size_t end = semi == std::string_view::npos ? code.size() : semi;
    size_t b = start;
    // Braces and a leading label ("L1:") are not part of the statement.
    while (b < end && (blank(code[b]) || code[b] == '{' || code[b] == '}')) ++b;
    if (b < end && code[b] != '.') {
      const size_t colon = code.find(':', b);
      if (colon < end) {
        bool label = true;
        for (size_t k = b; k < colon; ++k)
          if (blank(code[k]) || code[k] == ',') label = false;
        if (label) {
          b = colon + 1;
          while (b < end && (blank(code[b]) || code[b] == '{' || code[b] == '}')) ++b;
        }
      }
    }
    // Trailing braces are scope braces too, except the '}' that closes a
    // vector operand inside the statement ("mov.b32 %r1, {%h1, %h2};").
    size_t e = end;
    int depth = 0;  // braces opened minus braces closed in the piece
    for (size_t k = b; k < e; ++k) depth += (code[k] == '{') - (code[k] == '}');
    for (; e > b; --e) {
      const char c = code[e - 1];
      if (c == '{')
        --depth;
      else if (c == '}' && depth < 0)
        ++depth;
      else if (!blank(c))
        break;
    }
    if (e > b) pieces_.push_back({code.substr(b, e - b), static_cast<unsigned>(b) + 1, semi != std::string_view::npos});
    if (semi == std::string_view::npos) break;
    start = semi + 1;
  }
  return pieces_;
}

}  // namespace ptxfu::isa
