// Splits PTX source lines into directives and statements: comments (// and
// /* */ across lines), braces and labels removed, columns kept. Shared by
// `check` and the simulator's program loader.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ptxfu::isa {

struct SourcePiece {
  std::string_view text;  // trimmed; a directive starts with '.'
  unsigned column;        // 1-based column of text's first character
  bool terminated;        // ended by ';' (a statement must be)
  bool is_directive() const { return !text.empty() && text[0] == '.'; }
};

class SourceSplitter {
 public:
  // The pieces of one line; views into an internal copy valid until the
  // next call.
  const std::vector<SourcePiece>& split(std::string_view line);

 private:
  bool in_block_comment_ = false;
  std::string code_;
  std::vector<SourcePiece> pieces_;
};

}  // namespace ptxfu::isa
