// Fuzz target: the PTX statement parser and the legality checker, called
// directly (no line reader). The input is one line; it is split into
// statements as `check` splits it, and each statement is parsed, decoded,
// checked against the oldest and the newest target and its operands checked
// with and without a register table.
//
// Properties beyond "no crash, no sanitizer report":
//  - every diagnostic has a column inside the line (1 .. size + 1) and a
//    non-empty message;
//  - a decoded form spells back (isa::spell) to a mnemonic that decodes to
//    the same form.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "isa/forms.h"
#include "isa/module_check.h"
#include "isa/opcodes.h"
#include "isa/registers.h"
#include "isa/source.h"
#include "isa/statement.h"
#include "isa/target_options.h"

namespace {

using namespace ptxfu::isa;

[[noreturn]] void fail(const char* what, std::string_view detail) { ptxfu::fuzz::fail("fuzz_statement", what, detail); }

const Capabilities& caps(bool newest) {
  static const Capabilities oldest = ptxfu::fuzz::capabilities_named("fuzz_statement", "sm_70");
  static const Capabilities latest = ptxfu::fuzz::capabilities_named("fuzz_statement", "sm_100a");
  return newest ? latest : oldest;
}

const RegisterTable& registers() {
  static const RegisterTable table = [] {
    RegisterTable t;
    Diagnostic d;
    for (const char* decl : {".b16 %h<8>", ".b32 %r<8>", ".b64 %rd<8>", ".f32 %f<8>", ".f64 %fd<8>", ".pred %p<4>",
                             ".u32 %u<8>", ".s64 %sd<8>", ".b8 %rb<4>", ".b128 %q<4>", ".f16 %hf<4>"})
      if (!t.declare(decl, 1, d)) fail("bad .reg fixture", decl);
    return t;
  }();
  return table;
}

void check_diagnostic(const Diagnostic& d, std::string_view line) {
  if (d.message.empty()) fail("empty diagnostic", line);
  if (d.column == 0 || d.column > line.size() + 1) fail("diagnostic column outside the line", line);
}

void statement(std::string_view text, unsigned column, std::string_view line) {
  Statement st;
  Diagnostic d;
  if (!parse_statement(text, column, st, d)) return check_diagnostic(d, line);
  if (st.num_operands == 0 ||
      (is_other_instruction(st.mnemonic.text.substr(0, st.mnemonic.text.find('.'))) && !is_table_statement(st)))
    return;
  const OperandValues values = operand_values(st);
  Instr instr;
  if (!decode(st.mnemonic.text, values.src, st.mnemonic.column, instr, d, values.dest))
    return check_diagnostic(d, line);

  // The canonical spelling decodes to the same form.
  const std::string spelled = spell(instr);
  Instr again;
  Diagnostic d2;
  if (!decode(spelled, instr.num_src, 1, again, d2, values.dest)) fail("spelled form does not decode", spelled);
  if (again.op != instr.op || again.type != instr.type || again.type2 != instr.type2 || again.mods != instr.mods ||
      again.row != instr.row)
    fail("spelled form decodes differently", spelled);

  for (const bool newest : {false, true}) {
    Diagnostic dt;
    if (!check_target(instr, caps(newest), st.mnemonic.column, dt)) {
      check_diagnostic(dt, line);
      continue;
    }
    for (const RegisterTable* regs : {static_cast<const RegisterTable*>(nullptr), &registers()}) {
      Diagnostic dop;
      if (!check_operands(instr, st, regs, dop)) check_diagnostic(dop, line);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return -1;  // one line; long lines are the line reader's business (fuzz_check)
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  if (line.find('\n') != std::string_view::npos) return -1;
  if (find_invalid_byte(line) != std::string_view::npos) return 0;  // callers reject such lines first
  SourceSplitter splitter;
  for (const SourcePiece& piece : splitter.split(line)) {
    if (piece.column == 0 || piece.column + piece.text.size() > line.size() + 1) fail("piece outside the line", line);
    if (piece.is_directive()) {
      if (piece.text.rfind(".reg", 0) == 0) {
        RegisterTable t;
        Diagnostic d;
        if (!t.declare(piece.text.substr(4), piece.column + 4, d)) check_diagnostic(d, line);
      }
      continue;
    }
    statement(piece.text, piece.column, line);
  }
  return 0;
}
