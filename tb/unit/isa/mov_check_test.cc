// Scalar mov is checked as ptxas checks it: its type, and every register or
// special register exactly as wide as the type. Each case quotes what ptxas
// 13.0 printed for it (`ptxas -arch=sm_90`, the statement in an .entry with
// the registers below); where ptxas is installed it is asked again.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "isa/lexer.h"
#include "isa/module.h"
#include "isa/module_check.h"
#include "isa/target_options.h"
#include "ptxas.h"
#include "scratch_dir.h"

namespace ptxfu::isa {
namespace {

constexpr const char* kRegisters =
    ".reg .b32 %r<4>;\n.reg .b16 %h<4>;\n.reg .b64 %d;\n.reg .f32 %f;\n.reg .pred %p;\n.reg .b8 %q;\n";
constexpr unsigned kStatementLine = 11;  // after the four header lines and the six declarations

std::string module_text(const std::string& statement) {
  return std::string(".version 9.0\n.target sm_90\n.address_size 64\n.entry k() {\n") + kRegisters + statement +
         "\nret;\n}\n";
}

// The checker's first message, or "" when it accepts the module.
std::string check_message(const std::string& text) {
  std::vector<LexError> lex_errors;
  const std::vector<Lexeme> lexemes = lex(text, 1u << 16, lex_errors);
  std::vector<ModuleError> errors;
  const Module m = parse_module(lexemes, errors);
  std::string error;
  const auto caps = resolve_capabilities({}, std::string("sm_90"), 90, false, error);
  EXPECT_TRUE(caps) << error;
  check_module(m, *caps, errors);
  if (errors.empty()) return "";
  EXPECT_EQ(errors[0].loc.line, kStatementLine) << text;
  return errors[0].message;
}

struct Case {
  const char* statement;
  const char* ptxas;  // ptxas 13.0's message; "" when it accepts
};
const Case kCases[] = {
    {"mov.u16 %r0, %h0;", "Arguments mismatch for instruction 'mov'"},
    {"mov.u32 %r0, %h0;", "Arguments mismatch for instruction 'mov'"},
    {"mov.b32 %r0, %f;", ""},
    {"mov.f32 %f, %r0;", ""},
    {"mov.u64 %d, %clock64;", ""},
    {"mov.u32 %r0, %d;", "Arguments mismatch for instruction 'mov'"},
    {"mov.pred %p, 1;", ""},
    {"mov.pred %p, 2;", ""},
    {"mov.u32 %r0, %p;", "Arguments mismatch for instruction 'mov'"},
    {"mov.pred %p, %r0;", "Arguments mismatch for instruction 'mov'"},
    {"mov.f16 %h0, %h1;", "Unexpected instruction types specified for 'mov'"},
    {"mov.b8 %r0, 1;", "Unexpected instruction types specified for 'mov'"},
    {"mov.b16 %q, %h0;", "Arguments mismatch for instruction 'mov'"},
    {"mov.u16 %h0, 70000;", ""},
    {"mov.u32 %r0, %tid;", "Argument vector size mismatch for instruction 'mov'"},
    {"mov.u64 %d, %tid.x;", "Arguments mismatch for instruction 'mov'"},
    {"mov.u32 %r0, %clock64;", "Arguments mismatch for instruction 'mov'"},
    {"mov.b128 %d, %d;", "Arguments mismatch for instruction 'mov'"},
};

TEST(ScalarMov, CheckedAsPtxasChecksIt) {
  for (const Case& c : kCases) EXPECT_EQ(check_message(module_text(c.statement)), c.ptxas) << c.statement;
}

TEST(ScalarMov, TheQuotedMessagesAreStillPtxass) {
  const std::string ptxas = testing_support::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas installed";
  testing_support::ScratchDir dir;
  for (const Case& c : kCases) {
    const std::string path = dir.path() + "/mov.ptx";
    std::ofstream(path) << module_text(c.statement);
    const auto diagnostics = testing_support::run_ptxas(ptxas, path, "sm_90");
    const std::string first = diagnostics.empty() || diagnostics[0].fatal ? "" : diagnostics[0].message;
    EXPECT_EQ(first, c.ptxas) << c.statement;
  }
}

}  // namespace
}  // namespace ptxfu::isa
