// The syntax of a whole PTX module as nvcc emits it: module directives,
// variables in every state space, .entry and .func declarations with their
// parameter lists, bodies with nested scopes, labels and (guarded)
// instructions. parse_module() only reads; module_check.h resolves symbols
// and checks the instructions of the table.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/lexer.h"
#include "isa/statement.h"

namespace ptxfu::isa {

enum class StateSpace : uint8_t { reg, local, shared, global, const_, param, sreg };

// One declared name: `.reg .b32 %r<8>` is one declaration with count 8.
struct Declaration {
  StateSpace space = StateSpace::reg;
  std::string_view type;  // without the dot ("b32", "pred")
  SourceLoc type_loc;
  std::string_view name;
  SourceLoc loc;
  unsigned count = 0;     // %r<8>: 8 parameterised names %r0..%r7; 0: a single name
  unsigned vector = 1;    // .v2 / .v4
  bool is_array = false;  // name[N] (or name[] for .extern)
  bool is_extern = false;
  uint64_t elements = 1;  // product of the array dimensions; 0 for name[]
  unsigned align = 0;     // .align N; 0 when not given
  std::string_view init;  // the initialiser after '=' as written ("{0, 1}"); empty when none
};

// A name an operand refers to: a register, variable, parameter, label or
// function.
struct NameRef {
  std::string_view name;
  SourceLoc loc;
};

struct Instruction {
  Statement st;             // guard, mnemonic and operands, with lines and columns
  uint32_t first_name = 0;  // the names the operands mention: Function::names
  uint32_t num_names = 0;
};

struct BodyItem {
  enum class Kind : uint8_t { instruction, declaration, label, scope_open, scope_close };
  Kind kind;
  uint32_t index;  // into Function::instructions, declarations or labels
};

struct Function {
  bool is_entry = false;
  bool has_body = false;
  std::string_view name;
  SourceLoc loc;
  std::vector<Declaration> returns;
  std::vector<Declaration> params;
  std::vector<BodyItem> body;
  std::vector<Instruction> instructions;
  std::vector<Declaration> declarations;
  std::vector<NameRef> labels;
  std::vector<NameRef> names;
  bool syntax_error = false;  // in the body: ptxas stops there, before resolving its labels
};

struct ModuleError {
  SourceLoc loc;
  std::string message;
};

struct Module {
  std::optional<std::string_view> version;  // "9.0"
  SourceLoc version_loc;
  std::optional<std::string_view> target;  // the first .target word ("sm_90")
  SourceLoc target_loc;
  std::optional<SourceLoc> address_size_32;  // `.address_size 32`, which ptxas 13.0 refuses
  std::vector<Declaration> globals;
  std::vector<Function> functions;
  // Module-scope items that are neither declarations nor functions, in
  // order: what the checker needs to see statements in statement mode.
  std::vector<Instruction> loose_instructions;
  std::vector<NameRef> loose_names;
  bool has_directives = false;  // a module, not a list of loose statements
  unsigned statements = 0;      // directives, declarations and instructions read
};

// Parses the lexemes of one source. Syntax errors go to `errors`; parsing
// resumes at the next statement.
Module parse_module(const std::vector<Lexeme>& lexemes, std::vector<ModuleError>& errors);

}  // namespace ptxfu::isa
