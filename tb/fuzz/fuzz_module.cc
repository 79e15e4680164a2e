// Fuzz target: the whole-module PTX reader, called directly: isa::lex, then
// isa::parse_module, then isa::check_module for an old and a new target
// (sm_75 and sm_100a). The input is a PTX file of at most 64 KiB; it is read
// with a line limit it cannot reach and, up to 4 KiB, again with an 80-byte
// one (the skipped-line path of the lexer).
//
// Properties beyond "no crash, no sanitizer report":
//  - every LexError and ModuleError (parser's and checker's) has a non-empty
//    message, a line between 1 and the line of the end of the input, and a
//    column between 1 and one past the end of that line;
//  - every token of every parsed instruction (guard, mnemonic, operands) is a
//    non-empty view into the input whose line and column are those of its
//    first byte; label and name references too;
//  - every BodyItem indexes inside its vector, every instruction's names
//    inside the names vector, and scopes are balanced in each body (only the
//    last function may stay open, at the end of the input, with an error);
//  - reading the same input twice gives the same errors;
//  - isa::parse_statement on an instruction's text (mnemonic to the end of
//    the last operand, when on one line and free of lexical errors) succeeds
//    with the same mnemonic and operands at the same columns.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "isa/lexer.h"
#include "isa/module.h"
#include "isa/module_check.h"
#include "isa/statement.h"
#include "isa/target_options.h"

namespace {

using namespace ptxfu::isa;

constexpr size_t kMaxInput = 64 * 1024;
constexpr size_t kShortLine = 80;  // short enough that seeds hit the lexer's too-long-line path
constexpr size_t kShortLineInputs = 4096;

[[noreturn]] void fail(const char* what, std::string_view detail) { ptxfu::fuzz::fail("fuzz_module", what, detail); }

const Capabilities& caps(bool newest) {
  static const Capabilities oldest = ptxfu::fuzz::capabilities_named("fuzz_module", "sm_75");
  static const Capabilities latest = ptxfu::fuzz::capabilities_named("fuzz_module", "sm_100a");
  return newest ? latest : oldest;
}

// Where each line starts, so that a view's offset gives its line and column
// independently of the lexer's own counting.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(i + 1);
  }
  // The line of the end of the input: one more than the newlines.
  unsigned last() const { return static_cast<unsigned>(starts_.size()); }
  size_t length(unsigned line) const {
    const size_t end = line < starts_.size() ? starts_[line] - 1 : text_.size();
    return end - starts_[line - 1];
  }
  bool contains(std::string_view v) const {
    return !v.empty() && v.data() >= text_.data() && v.data() + v.size() <= text_.data() + text_.size();
  }
  SourceLoc loc_of(std::string_view v) const {
    const size_t offset = static_cast<size_t>(v.data() - text_.data());
    const auto line = static_cast<unsigned>(std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin());
    return {line, static_cast<unsigned>(offset - starts_[line - 1]) + 1};
  }

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
};

void check_error(const Lines& lines, SourceLoc loc, const std::string& message, const char* who) {
  const std::string detail =
      std::string(who) + " " + std::to_string(loc.line) + ":" + std::to_string(loc.column) + ": " + message;
  if (message.empty()) fail("error without a message", detail);
  if (loc.line < 1 || loc.line > lines.last()) fail("error line outside the input", detail);
  if (loc.column < 1 || loc.column > lines.length(loc.line) + 1) fail("error column outside its line", detail);
}

void check_view(const Lines& lines, std::string_view v, unsigned line, unsigned column, const char* what) {
  if (!lines.contains(v)) fail(what, "view outside the input");
  const SourceLoc at = lines.loc_of(v);
  if (at.line != line || at.column != column)
    fail(what, std::string(v) + " at " + std::to_string(line) + ":" + std::to_string(column) + ", its bytes are at " +
                   std::to_string(at.line) + ":" + std::to_string(at.column));
}

// The text of an instruction on one line, re-read alone, gives the same
// statement. Text with bytes the lexer skipped (invalid bytes, stray
// characters) is rejected alone: the module's lexer must have reported them.
void check_reparse(const Statement& st, const std::vector<LexError>& lex_errors) {
  const Token& last = st.num_operands ? st.operands[st.num_operands - 1] : st.mnemonic;
  const std::string_view text(st.mnemonic.text.data(),
                              static_cast<size_t>(last.text.data() + last.text.size() - st.mnemonic.text.data()));
  if (last.line != st.mnemonic.line || text.find('\n') != std::string_view::npos) return;
  std::vector<LexError> alone;
  lex(text, text.size(), alone);
  if (!alone.empty()) {
    const auto on_this_line = [&](const LexError& e) { return e.loc.line == st.mnemonic.line; };
    if (std::none_of(lex_errors.begin(), lex_errors.end(), on_this_line))
      fail("the instruction's text has a lexical error the module's lexer did not report", text);
    return;
  }
  Statement again;
  Diagnostic d;
  if (!parse_statement(text, st.mnemonic.column, again, d)) fail("parse_statement rejects a parsed instruction", text);
  if (again.mnemonic.text != st.mnemonic.text || again.mnemonic.column != st.mnemonic.column)
    fail("parse_statement reads another mnemonic", text);
  if (again.num_operands != st.num_operands) fail("parse_statement reads another operand count", text);
  for (unsigned k = 0; k < st.num_operands; ++k)
    if (again.operands[k].text != st.operands[k].text || again.operands[k].column != st.operands[k].column ||
        again.forms[k] != st.forms[k])
      fail("parse_statement reads another operand", text);
}

void check_instructions(const Lines& lines, const std::vector<Instruction>& instructions,
                        const std::vector<NameRef>& names, const std::vector<LexError>& lex_errors) {
  for (const Instruction& in : instructions) {
    const Statement& st = in.st;
    check_view(lines, st.mnemonic.text, st.mnemonic.line, st.mnemonic.column, "mnemonic");
    if (!st.guard.text.empty()) check_view(lines, st.guard.text, st.guard.line, st.guard.column, "guard");
    if (st.num_operands > kMaxOperands) fail("too many operands", st.mnemonic.text);
    for (unsigned k = 0; k < st.num_operands; ++k)
      check_view(lines, st.operands[k].text, st.operands[k].line, st.operands[k].column, "operand");
    if (in.first_name > names.size() || in.num_names > names.size() - in.first_name)
      fail("instruction names outside the names vector", st.mnemonic.text);
    check_reparse(st, lex_errors);
  }
  for (const NameRef& n : names) check_view(lines, n.name, n.loc.line, n.loc.column, "name reference");
}

void check_function(const Lines& lines, const Function& f, const std::vector<LexError>& lex_errors, bool is_last,
                    bool any_error) {
  int depth = 0;
  for (const BodyItem& item : f.body) {
    switch (item.kind) {
      case BodyItem::Kind::instruction:
        if (item.index >= f.instructions.size()) fail("body item past the instructions", f.name);
        break;
      case BodyItem::Kind::declaration:
        if (item.index >= f.declarations.size()) fail("body item past the declarations", f.name);
        break;
      case BodyItem::Kind::label:
        if (item.index >= f.labels.size()) fail("body item past the labels", f.name);
        break;
      case BodyItem::Kind::scope_open: ++depth; break;
      case BodyItem::Kind::scope_close:
        if (--depth < 0) fail("scope closed before it was opened", f.name);
        break;
    }
  }
  // A body cut by the end of the input is the last function, with an error.
  if (depth != 0 && !(is_last && any_error)) fail("unbalanced scopes", f.name);
  for (const NameRef& l : f.labels) check_view(lines, l.name, l.loc.line, l.loc.column, "label");
  check_instructions(lines, f.instructions, f.names, lex_errors);
}

struct Reading {
  std::vector<LexError> lex_errors;
  std::vector<Lexeme> lexemes;
  std::vector<ModuleError> errors;
  Module module;
};

// The Module holds views into `lexemes`' text (the input), not into the
// lexeme vector, so Reading can be returned by value.
Reading read(std::string_view text, size_t max_line) {
  Reading r;
  r.lexemes = lex(text, max_line, r.lex_errors);
  r.module = parse_module(r.lexemes, r.errors);
  return r;
}

template <typename E>
bool same_errors(const std::vector<E>& a, const std::vector<E>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const E& x, const E& y) {
    return x.loc.line == y.loc.line && x.loc.column == y.loc.column && x.message == y.message;
  });
}

void check_reading(std::string_view text, size_t max_line) {
  const Lines lines(text);
  const Reading r = read(text, max_line);
  for (const LexError& e : r.lex_errors) check_error(lines, e.loc, e.message, "lexer");
  for (const ModuleError& e : r.errors) check_error(lines, e.loc, e.message, "parser");

  const Reading again = read(text, max_line);
  if (!same_errors(r.lex_errors, again.lex_errors) || !same_errors(r.errors, again.errors))
    fail("a second reading gives other errors", text);

  const Module& m = r.module;
  const bool any_error = !r.lex_errors.empty() || !r.errors.empty();
  for (size_t k = 0; k < m.functions.size(); ++k)
    check_function(lines, m.functions[k], r.lex_errors, k + 1 == m.functions.size(), any_error);
  check_instructions(lines, m.loose_instructions, m.loose_names, r.lex_errors);

  for (const bool newest : {false, true}) {
    std::vector<ModuleError> errors;
    check_module(m, caps(newest), errors);
    for (const ModuleError& e : errors) check_error(lines, e.loc, e.message, newest ? "check sm_100a" : "check sm_75");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_reading(text, kMaxInput);
  // Small inputs, where most mutations happen, again with short lines; the
  // nvcc-sized ones would halve the executions.
  if (size <= kShortLineInputs) check_reading(text, kShortLine);
  return 0;
}
