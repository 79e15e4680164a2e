#include "isa/module.h"

#include <cstdlib>

#include <fmt/format.h>

namespace ptxfu::isa {
namespace {

// Directives a function header may carry before its body (performance
// tuning and attributes); each takes numbers separated by commas.
constexpr std::string_view kFunctionAttributes[] = {
    ".maxntid",        ".reqntid",           ".minnctapersm",    ".maxnctapersm",
    ".maxnreg",        ".noreturn",          ".explicitcluster", ".reqnctapercluster",
    ".maxclusterrank", ".blocksareclusters", ".abi_preserve",    ".abi_preserve_control",
};
constexpr std::string_view kLinking[] = {".visible", ".extern", ".weak", ".common"};

struct SpaceName {
  std::string_view name;
  StateSpace space;
};
constexpr SpaceName kSpaces[] = {
    {".reg", StateSpace::reg},       {".local", StateSpace::local},  {".shared", StateSpace::shared},
    {".global", StateSpace::global}, {".const", StateSpace::const_}, {".param", StateSpace::param},
};

template <size_t N>
bool one_of(const std::string_view (&list)[N], std::string_view w) {
  for (auto x : list)
    if (x == w) return true;
  return false;
}

std::optional<StateSpace> space_of(const Lexeme& l) {
  if (l.kind != TokKind::word) return std::nullopt;
  for (const auto& s : kSpaces)
    if (s.name == l.text) return s.space;
  return std::nullopt;
}

// A view from the start of `a` to the end of `b` (both in one buffer).
std::string_view span(const Lexeme& a, const Lexeme& b) {
  return {a.text.data(), static_cast<size_t>(b.text.data() + b.text.size() - a.text.data())};
}

std::string describe(const Lexeme& l) {
  if (l.kind == TokKind::end) return "the end of the input";
  return fmt::format("'{}'", l.text);
}

class Parser {
 public:
  Parser(const std::vector<Lexeme>& t, std::vector<ModuleError>& errors) : t_(t), errors_(errors) {}

  Module module() {
    Module m;
    while (!at_end()) {
      const Lexeme& l = peek();
      if (l.is_directive()) {
        m.has_directives = true;
        module_directive(m);
      } else if (l.kind == TokKind::word || l.is('@')) {
        Instruction in;
        in.first_name = static_cast<uint32_t>(m.loose_names.size());
        if (instruction(in.st, m.loose_names)) {
          in.num_names = static_cast<uint32_t>(m.loose_names.size()) - in.first_name;
          m.loose_instructions.push_back(in);
        }
        ++m.statements;
      } else {
        m.has_directives |= l.is('{') || l.is('}');
        error(l.loc, fmt::format("unexpected {}", describe(l)));
        next();
        recover();
      }
    }
    return m;
  }

  // One instruction and nothing after it (parse_statement).
  bool single(Statement& st, Diagnostic& err) {
    std::vector<NameRef> names;
    bool ok = instruction(st, names, false);
    if (ok && !at_end()) {
      error(peek().loc, fmt::format("unexpected {} after the statement", describe(peek())));
      ok = false;
    }
    if (!ok && !errors_.empty()) err = {errors_.front().loc.column, errors_.front().message};
    return ok;
  }

 private:
  const Lexeme& peek(size_t k = 0) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  const Lexeme& next() {
    const Lexeme& l = t_[p_];
    if (p_ + 1 < t_.size()) ++p_;
    return l;
  }
  bool at_end() const { return peek().kind == TokKind::end; }
  bool accept(char c) {
    if (!peek().is(c)) return false;
    next();
    return true;
  }
  void error(SourceLoc loc, std::string message) { errors_.push_back({loc, std::move(message)}); }
  // Where a missing token should have been: just after the previous one.
  SourceLoc after_previous() const {
    if (p_ == 0) return peek().loc;
    const Lexeme& prev = t_[p_ - 1];
    if (prev.kind == TokKind::end) return prev.loc;
    return {prev.loc.line, prev.loc.column + static_cast<unsigned>(prev.text.size())};
  }
  bool expect(char c, std::string_view what) {
    if (accept(c)) return true;
    error(peek().loc, fmt::format("expected '{}' {}, found {}", c, what, describe(peek())));
    return false;
  }
  // After a syntax error: skip to the end of the statement (its ';', eaten)
  // or to a brace, which the caller's loop handles.
  void recover() {
    int depth = 0;
    while (!at_end()) {
      const Lexeme& l = peek();
      if (depth == 0 && (l.is('{') || l.is('}'))) return;
      if (l.is('(') || l.is('[')) ++depth;
      if ((l.is(')') || l.is(']')) && depth > 0) --depth;
      next();
      if (depth == 0 && l.is(';')) return;
    }
  }
  void skip_line(unsigned line) {
    while (!at_end() && peek().loc.line == line) next();
  }
  bool number(std::string_view what) {
    if (peek().kind == TokKind::number) {
      next();
      return true;
    }
    error(peek().loc, fmt::format("expected {}, found {}", what, describe(peek())));
    return false;
  }
  // Skips { ... } including nested braces, the opening one at peek().
  void skip_braces() {
    int depth = 0;
    do {
      if (peek().is('{')) ++depth;
      if (peek().is('}')) --depth;
      next();
    } while (depth > 0 && !at_end());
  }

  void module_directive(Module& m) {
    const Lexeme& d = peek();
    ++m.statements;
    if (d.text == ".version") {
      next();
      m.version_loc = peek().loc;
      if (peek().kind == TokKind::number)
        m.version = next().text;
      else
        error(peek().loc, fmt::format("expected a version number after .version, found {}", describe(peek())));
    } else if (d.text == ".target") {
      next();
      m.target_loc = peek().loc;
      if (peek().kind != TokKind::word) {
        error(peek().loc, fmt::format("expected a target name after .target, found {}", describe(peek())));
        return;
      }
      m.target = next().text;
      while (accept(',')) {
        if (peek().kind != TokKind::word) {
          error(peek().loc, fmt::format("expected a target option after ',', found {}", describe(peek())));
          return;
        }
        next();
      }
    } else if (d.text == ".address_size") {
      next();
      if (number("an address size (32 or 64)")) {
        const std::string_view size = t_[p_ - 1].text;
        if (size != "32" && size != "64")
          error(t_[p_ - 1].loc, fmt::format("address size must be 32 or 64, not {}", size));
        else if (size == "32")
          m.address_size_32 = t_[p_ - 1].loc;
      }
    } else if (d.text == ".file" || d.text == ".loc") {
      skip_line(d.loc.line);
    } else if (d.text == ".section") {
      next();
      if (peek().kind == TokKind::word) next();
      if (peek().is('{'))
        skip_braces();
      else
        error(peek().loc, fmt::format("expected '{{' after .section, found {}", describe(peek())));
    } else if (d.text == ".pragma") {
      pragma();
    } else if (d.text == ".alias") {
      next();
      recover();
    } else {
      bool is_extern = false;
      bool linked = false;
      while (peek().kind == TokKind::word && one_of(kLinking, peek().text)) {
        is_extern |= peek().text == ".extern";
        linked = true;
        next();
      }
      const Lexeme& what = peek();
      if (what.is_word(".entry") || what.is_word(".func")) {
        function(m);
      } else if (const auto space = space_of(what)) {
        next();
        variables(*space, is_extern, m.globals);
      } else {
        error(what.loc, linked
                            ? fmt::format("expected .entry, .func or a variable after the linking directive, found {}",
                                          describe(what))
                        : what.is_directive() ? fmt::format("Unknown directive '{}'", what.text)
                                              : fmt::format("unexpected {}", describe(what)));
        next();
        recover();
      }
    }
  }

  void pragma() {
    next();
    if (peek().kind == TokKind::string)
      next();
    else
      error(peek().loc, fmt::format("expected a string after .pragma, found {}", describe(peek())));
    while (accept(',')) {
      if (peek().kind == TokKind::string) next();
    }
    if (!accept(';')) error(after_previous(), "expected ';' at the end of the statement");
  }

  // The part of a declaration after its state space: attributes, type and
  // one or more names, up to and including ';' (or, in a parameter list, up
  // to the ',' or ')' that ends it: `in_list`).
  void variables(StateSpace space, bool is_extern, std::vector<Declaration>& out, bool in_list = false) {
    Declaration d;
    d.space = space;
    d.is_extern = is_extern;
    while (peek().is_directive()) {
      const Lexeme& a = next();
      if (a.text == ".align") {
        if (!number("an alignment after .align")) return recover();
        d.align = static_cast<unsigned>(std::strtoul(std::string(t_[p_ - 1].text).c_str(), nullptr, 0));
      } else if (a.text == ".v2" || a.text == ".v4" || a.text == ".v8") {
        d.vector = static_cast<unsigned>(a.text[2] - '0');
      } else if (a.text == ".ptr" || a.text == ".global" || a.text == ".shared" || a.text == ".const" ||
                 a.text == ".local") {
        // .param .u64 .ptr .global .align 8 name: attributes of a kernel pointer
      } else if (a.text == ".attribute") {
        if (peek().is('(')) skip_parens();
      } else if (find_type(a.text.substr(1)) || a.text == ".texref" || a.text == ".surfref" ||
                 a.text == ".samplerref") {  // the opaque handle types of textures and surfaces
        d.type = a.text.substr(1);
        d.type_loc = a.loc;
      } else {
        error(a.loc, fmt::format("unknown type or attribute '{}' in a declaration", a.text));
        if (!in_list) recover();
        return;
      }
    }
    if (d.type.empty()) {
      error(peek().loc, fmt::format("expected a type in the declaration, found {}", describe(peek())));
      if (!in_list) recover();
      return;
    }
    while (true) {
      if (peek().kind != TokKind::word || peek().is_directive()) {
        error(peek().loc, fmt::format("expected a name in the declaration, found {}", describe(peek())));
        if (!in_list) recover();
        return;
      }
      if (const size_t dot = peek().text.find('.'); dot != std::string_view::npos) {
        const Lexeme& n = peek();  // ptxas reads `a.b` as the name `a` and a stray field
        error({n.loc.line, n.loc.column + static_cast<unsigned>(dot)},
              fmt::format("Parsing error near '{}': syntax error", n.text.substr(dot)));
        if (!in_list) recover();
        return;
      }
      Declaration one = d;
      one.name = peek().text;
      one.loc = next().loc;
      if (accept('<')) {
        const Lexeme& n = peek();
        unsigned count = 0;
        if (n.kind == TokKind::number) {
          for (char c : n.text) {
            if (c < '0' || c > '9' || count >= 100000000) {  // not a count, or absurdly many
              count = 0;
              break;
            }
            count = count * 10 + static_cast<unsigned>(c - '0');
          }
          next();
        }
        if (count == 0 || !accept('>')) {
          error(n.loc, "expected a register count like %r<8>");
          if (!in_list) recover();
          return;
        }
        one.count = count;
      }
      while (accept('[')) {
        one.is_array = true;
        if (peek().kind == TokKind::number)
          one.elements *= std::strtoull(std::string(next().text).c_str(), nullptr, 0);
        else
          one.elements = 0;
        if (!expect(']', "after the array size")) {
          if (!in_list) recover();
          return;
        }
      }
      if (accept('=')) {
        const size_t first = p_;
        skip_initialiser();
        if (p_ > first) one.init = span(t_[first], t_[p_ - 1]);
      }
      out.push_back(one);
      if (in_list) return;
      if (accept(',')) continue;
      if (!accept(';')) error(after_previous(), "expected ';' at the end of the declaration");
      return;
    }
  }

  void skip_parens() {
    int depth = 0;
    do {
      if (peek().is('(')) ++depth;
      if (peek().is(')')) --depth;
      next();
    } while (depth > 0 && !at_end());
  }

  void skip_initialiser() {
    int depth = 0;
    while (!at_end()) {
      const Lexeme& l = peek();
      if (depth == 0 && (l.is(',') || l.is(';'))) return;
      if (l.is('{') || l.is('(')) ++depth;
      if ((l.is('}') || l.is(')')) && --depth < 0) return;
      next();
    }
  }

  bool params(std::vector<Declaration>& out) {
    next();  // '('
    if (accept(')')) return true;
    while (true) {
      const auto space = space_of(peek());
      if (!space || (*space != StateSpace::param && *space != StateSpace::reg)) {
        error(peek().loc, fmt::format("expected .param or .reg in the parameter list, found {}", describe(peek())));
        return false;
      }
      next();
      const size_t before = errors_.size();
      variables(*space, false, out, true);
      if (errors_.size() != before) return false;
      if (accept(')')) return true;
      if (!expect(',', "between parameters")) return false;
    }
  }

  void function(Module& m) {
    Function f;
    f.is_entry = next().text == ".entry";
    auto give_up = [&] {
      // Skip the rest of the header and the body, if any.
      while (!at_end() && !peek().is('{') && !peek().is(';')) next();
      if (peek().is('{'))
        skip_braces();
      else
        accept(';');
    };
    if (!f.is_entry && peek().is('(') && !params(f.returns)) return give_up();
    if (peek().kind != TokKind::word || peek().is_directive()) {
      error(peek().loc, fmt::format("expected a function name, found {}", describe(peek())));
      return give_up();
    }
    f.name = peek().text;
    f.loc = next().loc;
    if (peek().is('(') && !params(f.params)) return give_up();
    bool maxntid = false, reqntid = false;
    while (peek().is_directive()) {
      const Lexeme& a = peek();
      maxntid |= a.text == ".maxntid";
      reqntid |= a.text == ".reqntid";
      if (a.text == ".pragma") {
        pragma();
        continue;
      }
      if (!one_of(kFunctionAttributes, a.text)) {
        error(a.loc, fmt::format("Unknown directive '{}' in the header of '{}'", a.text, f.name));
        return give_up();
      }
      next();
      if (peek().kind == TokKind::number) {
        next();
        while (accept(','))
          if (!number("a number")) return give_up();
      }
    }
    // ptxas reports the conflict where the function ends.
    const auto conflict = [&] {
      if (maxntid && reqntid)
        error(t_[p_ - 1].loc, "Conflicting directives: .maxntid and .reqntid cannot both be specified");
    };
    if (accept(';')) {
      conflict();
      m.functions.push_back(std::move(f));
      return;
    }
    if (!peek().is('{')) {
      error(peek().loc,
            fmt::format("expected '{{' or ';' after the header of '{}', found {}", f.name, describe(peek())));
      return give_up();
    }
    next();
    f.has_body = true;
    const size_t errors_before = errors_.size();
    body(f, m);
    f.syntax_error = errors_.size() != errors_before;
    if (t_[p_ - 1].is('}')) conflict();
    m.functions.push_back(std::move(f));
  }

  void body(Function& f, Module& m) {
    int depth = 1;
    while (true) {
      const Lexeme& l = peek();
      if (l.kind == TokKind::end) {
        error(l.loc, fmt::format("expected '}}' at the end of '{}', found the end of the input", f.name));
        return;
      }
      if (l.is('{')) {
        next();
        ++depth;
        f.body.push_back({BodyItem::Kind::scope_open, 0});
        continue;
      }
      if (l.is('}')) {
        next();
        if (--depth == 0) return;
        f.body.push_back({BodyItem::Kind::scope_close, 0});
        continue;
      }
      ++m.statements;
      if (l.is_directive()) {
        if (const auto space = space_of(l)) {
          next();
          const size_t first = f.declarations.size();
          variables(*space, false, f.declarations);
          for (size_t k = first; k < f.declarations.size(); ++k)
            f.body.push_back({BodyItem::Kind::declaration, static_cast<uint32_t>(k)});
        } else if (l.text == ".loc" || l.text == ".file") {
          skip_line(l.loc.line);
        } else if (l.text == ".pragma") {
          pragma();
        } else {
          error(l.loc, fmt::format("Unknown directive '{}' in the body of '{}'", l.text, f.name));
          next();
          recover();
        }
        continue;
      }
      if (l.kind == TokKind::word && peek(1).is(':')) {  // a label
        f.body.push_back({BodyItem::Kind::label, static_cast<uint32_t>(f.labels.size())});
        f.labels.push_back({l.text, l.loc});
        next();
        next();
        if (peek().is_word(".callprototype")) {  // prototype_0 : .callprototype (...) _ (...);
          while (!at_end() && !peek().is(';') && !peek().is('}')) next();
          accept(';');
        }
        continue;
      }
      if (l.kind == TokKind::word || l.is('@')) {
        Instruction in;
        in.first_name = static_cast<uint32_t>(f.names.size());
        if (instruction(in.st, f.names)) {
          in.num_names = static_cast<uint32_t>(f.names.size()) - in.first_name;
          f.body.push_back({BodyItem::Kind::instruction, static_cast<uint32_t>(f.instructions.size())});
          f.instructions.push_back(in);
        }
        continue;
      }
      error(l.loc, fmt::format("unexpected {}", describe(l)));
      next();
      recover();
    }
  }

  // [@[!]pred] mnemonic [operand {, operand}] ;
  bool instruction(Statement& st, std::vector<NameRef>& names, bool need_semicolon = true) {
    st = Statement{};
    if (accept('@')) {
      st.guard_negated = accept('!');
      const Lexeme& g = peek();
      if (g.kind != TokKind::word || g.is_directive()) {
        error(g.loc, "expected a predicate register after '@'");
        recover();
        return false;
      }
      st.guard = {g.text, g.loc.column, g.loc.line};
      names.push_back({g.text, g.loc});
      next();
    }
    const Lexeme& m = peek();
    if (m.kind != TokKind::word || m.is_directive() || m.text[0] == '%') {
      error(m.loc, m.kind == TokKind::end ? std::string("expected an instruction")
                                          : fmt::format("expected an instruction, found {}", describe(m)));
      if (m.kind != TokKind::end) next();
      recover();
      return false;
    }
    st.mnemonic = {m.text, m.loc.column, m.loc.line};
    next();
    if (!peek().is(';') && !(peek().kind == TokKind::end && !need_semicolon)) {
      while (true) {
        if (st.num_operands == kMaxOperands) {
          error(peek().loc, fmt::format("too many operands (at most {})", kMaxOperands));
          recover();
          return false;
        }
        if (!operand(st, names)) {
          recover();
          return false;
        }
        if (!accept(',')) break;
      }
    }
    if (!need_semicolon) return true;
    if (!accept(';')) {
      // Most often a forgotten ';': report it and read on from here.
      error(after_previous(), "expected ';' at the end of the statement");
      return false;
    }
    return true;
  }

  // A number in an operand: well formed, and within ptxas's constant range.
  void overflow(const Lexeme& number) {
    if (classify_literal(number.text) == LiteralKind::none)
      error(number.loc, fmt::format("malformed number '{}'", number.text));
    else if (literal_overflows(number.text))
      error(number.loc, "Constant overflow");
  }

  bool operand(Statement& st, std::vector<NameRef>& names) {
    const Lexeme& first = peek();
    OperandForm form = OperandForm::plain;
    auto name = [&](const Lexeme& l) {
      if (l.kind == TokKind::word) names.push_back({l.text, l.loc});
      if (l.kind == TokKind::number) overflow(l);
    };
    auto bracketed = [&](char close, bool commas) {
      next();
      while (!peek().is(close)) {
        const Lexeme& l = peek();
        const bool ok =
            l.kind == TokKind::word || l.kind == TokKind::number || l.is('+') || l.is('-') || (commas && l.is(','));
        if (!ok || l.is_directive()) {
          error(l.loc, fmt::format("expected '{}' to close the operand, found {}", close, describe(l)));
          return false;
        }
        name(l);
        next();
      }
      next();
      return true;
    };
    if (first.is('[') && peek(1).kind == TokKind::word && peek(2).is(',')) {
      form = OperandForm::indexed;  // [tex, {coords}], [tex, sampler, {coords}], [tensormap, {coords}]
      next();
      while (peek().kind == TokKind::word && !peek().is_directive() && peek(1).is(',')) {
        name(next());
        next();
      }
      if (!peek().is('{')) {
        error(peek().loc, fmt::format("expected '{{' to open the coordinates, found {}", describe(peek())));
        return false;
      }
      if (!bracketed('}', true)) return false;
      if (!accept(']')) {
        error(peek().loc, fmt::format("expected ']' to close the operand, found {}", describe(peek())));
        return false;
      }
    } else if (first.is('[')) {
      form = OperandForm::address;
      if (!bracketed(']', false)) return false;
      for (size_t k = p_ - 1; &t_[k] != &first; --k)  // [a+b]: one name at most, as ptxas reads it
        if (t_[k].kind == TokKind::word && &t_[k - 1] != &first && t_[k - 1].is('+') &&
            t_[k - 2].kind == TokKind::word) {
          error(t_[k].loc, fmt::format("Parsing error near '{}': syntax error", t_[k].text));
          return false;
        }
    } else if (first.is('{')) {
      form = OperandForm::vector;
      if (!bracketed('}', true)) return false;
      if (peek().is('|')) {  // tex's {d, e, f, g}|p: the texels and whether they were resident
        form = OperandForm::vector_pair;
        next();
        if (peek().kind != TokKind::word) {
          error(peek().loc, "expected a predicate after '|'");
          return false;
        }
        name(next());
      }
    } else if (first.is('(')) {
      form = OperandForm::group;
      if (!bracketed(')', true)) return false;
    } else if (first.is('!')) {
      form = OperandForm::negated;
      next();
      if (peek().kind != TokKind::word) {
        error(peek().loc, "expected a predicate after '!'");
        return false;
      }
      name(peek());
      next();
    } else if (first.is('-') || first.is('+')) {
      next();
      if (peek().kind != TokKind::number || peek().text.data() != first.text.data() + 1) {
        error(first.loc, "expected a number after the sign");
        return false;
      }
      overflow(next());
    } else if (first.kind == TokKind::number) {
      overflow(next());
    } else if (first.kind == TokKind::word && !first.is_directive()) {
      name(first);
      next();
      if (peek().is('|')) {  // setp's p|q
        form = OperandForm::pair;
        next();
        if (peek().kind != TokKind::word) {
          error(peek().loc, "expected a predicate after '|'");
          return false;
        }
        name(peek());
        next();
      } else if ((peek().is('+') || peek().is('-')) && peek(1).kind == TokKind::number) {
        next();  // name+4: an address constant
        next();
      }
    } else {
      error(first.loc, fmt::format("expected an operand, found {}", describe(first)));
      return false;
    }
    st.operands[st.num_operands] = {span(first, t_[p_ - 1]), first.loc.column, first.loc.line};
    st.forms[st.num_operands] = form;
    ++st.num_operands;
    return true;
  }

  const std::vector<Lexeme>& t_;
  std::vector<ModuleError>& errors_;
  size_t p_ = 0;
};

}  // namespace

Module parse_module(const std::vector<Lexeme>& lexemes, std::vector<ModuleError>& errors) {
  return Parser(lexemes, errors).module();
}

bool parse_statement(std::string_view text, unsigned column, Statement& out, Diagnostic& err) {
  std::vector<LexError> lex_errors;
  std::vector<Lexeme> lexemes = lex(text, text.size(), lex_errors);
  if (!lex_errors.empty()) {
    err = {lex_errors.front().loc.column + column - 1, lex_errors.front().message};
    return false;
  }
  for (Lexeme& l : lexemes) l.loc.column += column - 1;
  std::vector<ModuleError> errors;
  Parser parser(lexemes, errors);
  if (!parser.single(out, err)) return false;
  for (unsigned k = 0; k < out.num_operands; ++k) out.operands[k].line = 0;
  out.mnemonic.line = out.guard.line = 0;
  return true;
}

}  // namespace ptxfu::isa
