// Checks PTX the way ptxas reads it: every symbol an instruction names is
// declared in a scope that reaches it, and every instruction of the table is
// legal for the target, with operands of the right kinds and widths.
#pragma once
#include <vector>

#include "isa/decode.h"
#include "isa/module.h"
#include "isa/registers.h"

namespace ptxfu::isa {

// Whether the instruction table judges `st`: its opcode is the table's and,
// where the table holds only an opcode's vector forms (mov), it has a
// vector operand. Other statements of PTX's other instructions are checked
// for syntax and symbols only.
bool is_table_statement(const Statement& st);

// One statement against the instruction table: its form, its target and its
// operands (register widths and kinds where `regs` knows them). Statements
// of instructions outside the table fail with `other_instruction` set.
bool check_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err,
                     bool& other_instruction);

// A whole module (file mode). Errors are appended to `errors`.
void check_module(const Module& m, const Capabilities& caps, std::vector<ModuleError>& errors);

}  // namespace ptxfu::isa
