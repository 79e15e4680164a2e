// The ptxas behaviours a newcomer met (issue 24): each module below is
// judged as ptxas 13.0 judges it, with its first message word for word and
// on its line. The verdicts are ptxas's (`ptxas -arch=TARGET`, the module
// as written); where ptxas is installed it is asked again.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

#include "isa/check_source.h"
#include "ptxas.h"
#include "scratch_dir.h"

namespace ptxfu::isa {
namespace {

struct Case {
  const char* target;
  const char* version;
  const char* address_size;
  const char* header;  // after the kernel's parameter list
  const char* body;    // after the register declarations (line 10 on)
  unsigned line;       // ptxas's line; 0: ptxas accepts
  const char* message;
};

std::string module_text(const Case& c) {
  return std::string(".version ") + c.version + "\n.target " + c.target + "\n.address_size " + c.address_size +
         "\n.visible .entry k(.param .u64 pp)" + c.header +
         " {\n.reg .b8 %b<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<8>;\n" + c.body +
         "\nret;\n}\n";
}

// A stray '}' ends the function before the label its branch names.
constexpr const char* kStrayBrace = "@%p1 bra RET;\n}\nadd.u32 %r1, %r2, %r3;\nadd.u32 %r1, %r2, %r3;\nRET:\n{";

const Case kCases[] = {
    // A register named like a special register hides it: %tid.x is a video selector.
    {"sm_90", "9.0", "64", "", ".reg .u32 %tid;\nmov.u32 %tid, %tid.x;", 11, "Unknown video selector: '.x'"},
    {"sm_90", "9.0", "64", "", ".reg .u32 %tid;\nmov.u32 %r1, %tid;", 0, ""},
    // Identifiers containing '.'
    {"sm_90", "9.0", "64", "", ".reg .u32 a.b;", 10, "Parsing error near '.b': syntax error"},
    {"sm_90", "9.0", "64", "", "mov.u32 %r1, a.b;", 10, "Unknown field '.b'"},
    // Module directives
    {"sm_80", "9.0", "32", "", "", 0, "32-Bit compilation is no longer supported"},
    {"sm_90", "9.0", "32", "", "", 0,
     "32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90 or higher architectures."},
    {"sm_90", "9.0", "64", " .maxntid 64,1,1 .reqntid 64,1,1", "", 12,
     "Conflicting directives: .maxntid and .reqntid cannot both be specified"},  // at the '}'

    {"sm_90", "8.9", "64", "", "", 1, "Unsupported .version 8.9; current version is '9.0'"},
    {"sm_90", "9.1", "64", "", "", 1, "Unsupported .version 9.1; current version is '9.0'"},
    {"sm_90", "8.8", "64", "", "", 0, ""},
    // Operands
    {"sm_90", "9.0", "64", "", "ld.global.u32 %r1, [%rd1+%rd2];", 10, "Parsing error near '%rd2': syntax error"},
    {"sm_90", "9.0", "64", "", "cvta.to.global.u64 %rd1, [%rd2];", 10,
     "Argument 1 of instruction 'cvta.to': must be register"},
    {"sm_90", "9.0", "64", "", "cvta.global.u64 %rd1, [%rd2];", 10,
     "Argument 1 of instruction 'cvta': must be register"},
    {"sm_90", "9.0", "64", "", "cvta.global.u64 %rd1, [pp];", 10, "Arguments mismatch for instruction 'cvta'"},
    {"sm_90", "9.0", "64", "", "cvta.param.u64 %rd1, pp;", 0, ""},
    {"sm_90", "9.0", "64", "", "mul.lo.u32 %r1, %tid.x, %r2;", 10,
     "Special register argument not allowed for instruction 'mul.lo'"},
    {"sm_90", "9.0", "64", "", "setp.eq.u32 %p1, %laneid, 0;", 10,
     "Special register argument not allowed for instruction 'setp'"},
    {"sm_90", "9.0", "64", "", "add.u32 %tid.x, %r1, 1;", 10,
     "Special register argument not allowed for instruction 'add'"},
    {"sm_90", "9.0", "64", "", "cvt.u64.u32 %rd1, %tid.x;", 0, ""},
    {"sm_90", "9.0", "64", "", "add.u64 %rd1, pp, 1;", 10, "Argument 1 of instruction 'add': must be register"},
    {"sm_90", "9.0", "64", "", "mul.wide.u32 %rd1, %r1, pp;", 10,
     "Argument 2 of instruction 'mul.wide': must be register"},
    // tcgen05: an entry may not use both CTA groups (ptxas names no line), once every line passed
    {"sm_100a", "9.0", "64", "",
     "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;\n"
     "tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r1, 32;",
     0, "Function 'k' uses single CTA(.cta_group::1) and CTA pair granularity(.cta_group::2) and that is not allowed."},
    {"sm_100a", "9.0", "64", "",
     "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;\n"
     "tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r1, 33;",
     11, "Argument 1 of instruction 'tcgen05.dealloc': unexpected value '33', expected to be multiple of 32"},
    {"sm_100a", "9.0", "64", "",
     "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r1], 32;\n"
     "tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r1, 32;",
     0, ""},
    // Text
    {"sm_90", "9.0", "64", "", "add.u32 %r1, %r2, 1; // caf\xc3\xa9", 0,
     "Unexpected non-ASCII character encountered on line 10"},
    // A label used before it stands, in a function ptxas stops reading at a
    // syntax error further on (the missing ';'), is no unknown symbol.
    {"sm_90", "9.0", "64", "", "@%p1 bra RET;\nret\nRET:", 12, ""},
    {"sm_90", "9.0", "64", "", "@%p1 bra RET;\nRET:", 0, ""},
    // A stray '}': the label is unknown, the first instruction after it is
    // the syntax error ptxas stops at, and nothing after it is reported.
    {"sm_90", "9.0", "64", "", kStrayBrace, 10, "Unknown symbol 'RET'"},
    // Arithmetic and conversion forms ptxas 13.0 accepts outside the spec's syntax blocks
    {"sm_75", "9.0", "64", "", "addc.u16 %h1, %h2, %h3;", 0, ""},
    {"sm_90", "9.0", "64", "", "addc.s16 %h1, %h2, %h3;", 0, ""},
    {"sm_90", "9.0", "64", "", "subc.u16 %h1, %h2, %h3;", 0, ""},
    {"sm_90", "9.0", "64", "", "subc.s16 %h1, %h2, %h3;", 0, ""},
    {"sm_90", "9.0", "64", "", "madc.lo.u16 %h1, %h2, %h3, %h4;", 0, ""},
    {"sm_90", "9.0", "64", "", "madc.hi.s16 %h1, %h2, %h3, %h4;", 0, ""},
    {"sm_90", "9.0", "64", "", "addc.sat.s16 %h1, %h2, %h3;", 10, "Modifier '.sat' does not apply to '.s16' type"},
    {"sm_90", "9.0", "64", "", "addc.cc.u16 %h1, %h2, %h3;", 10, ""},  // ptxas: "applies only to addc integer types"
    {"sm_90", "9.0", "64", "", "set.lt.bf16.f16 %h1, %h2, %h3;", 0, ""},
    {"sm_90", "9.0", "64", "", "set.lt.and.bf16.f16 %h1, %h2, %h3, %p1;", 0, ""},
    {"sm_80", "9.0", "64", "", "set.lt.bf16.f16 %h1, %h2, %h3;", 10, ""},  // ptxas: "Feature 'set.bf16' requires ..."
    {"sm_90", "9.0", "64", "", "set.lt.f16.bf16 %h1, %h2, %h3;", 10,
     "Unexpected instruction types specified for 'set'"},
    {"sm_100a", "9.0", "64", "", "cvt.rn.satfinite.e2m1x2.f16x2 %b1, %r2;", 0, ""},
    {"sm_120a", "9.0", "64", "", "cvt.rn.satfinite.relu.e2m1x2.f16x2 %b1, %r2;", 0, ""},
    {"sm_90", "9.0", "64", "", "cvt.rn.satfinite.e2m1x2.f16x2 %b1, %r2;", 10,
     "Instruction 'cvt with .e2m1x2' not supported on .target 'sm_90'"},
    {"sm_100a", "9.0", "64", "", "cvt.rn.e2m1x2.f16x2 %b1, %r2;", 10, ""},
    {"sm_100a", "9.0", "64", "", "cvt.rn.satfinite.e2m1x2.f16x2 %h1, %r2;", 10,
     "Arguments mismatch for instruction 'cvt'"},
};

TEST(PtxasBehaviour, CheckAgreesWithPtxas) {
  for (const Case& c : kCases) {
    const std::string text = module_text(c);
    const CheckOutcome out = check_source(text, TargetOptions{}, 1u << 16);
    const bool accepts = c.line == 0 && c.message[0] == '\0';
    EXPECT_EQ(out.verdicts.empty(), accepts) << text << (out.verdicts.empty() ? "" : out.verdicts[0].message);
    if (accepts || out.verdicts.empty()) continue;
    if (c.message[0] != '\0') {
      EXPECT_EQ(out.verdicts[0].message, c.message) << text;
    }
    if (c.line != 0) {
      EXPECT_EQ(out.verdicts[0].loc.line, c.line) << text;
    }
  }
}

TEST(PtxasBehaviour, StrayInstructionsCascadeNoFurther) {
  const Case stray = {"sm_90", "9.0", "64", "", kStrayBrace, 10, ""};
  const CheckOutcome out = check_source(module_text(stray), TargetOptions{}, 1u << 16);
  ASSERT_EQ(out.verdicts.size(), 2u);
  EXPECT_EQ(out.verdicts[1].message, "instruction outside a function body");
  EXPECT_EQ(out.verdicts[1].loc.line, 12u);
}

// ptxas's first error or fatal message and its line (0 when it names none).
struct FirstMessage {
  bool any = false;
  unsigned line = 0;
  std::string message;
};

FirstMessage ask_ptxas(const std::string& ptxas, const std::string& path, const char* target) {
  FirstMessage first;
  std::FILE* p = popen((ptxas + " -arch=" + target + " -o /dev/null " + path + " 2>&1").c_str(), "r");
  if (p == nullptr) return first;
  static const std::regex re(R"(^ptxas (?:\S+, line (\d+); )?(?:error|fatal)\s*:\s*(.*)$)");
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) {
    std::string line(buf);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    std::smatch m;
    if (first.any || !std::regex_search(line, m, re)) continue;
    first = {true, m[1].matched ? static_cast<unsigned>(std::stoul(m[1])) : 0u, m[2]};
  }
  pclose(p);
  return first;
}

TEST(PtxasBehaviour, TheQuotedVerdictsAreStillPtxass) {
  const std::string ptxas = testing_support::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas installed";
  testing_support::ScratchDir dir;
  for (const Case& c : kCases) {
    const std::string path = dir / "b.ptx";
    std::ofstream(path) << module_text(c);
    const FirstMessage got = ask_ptxas(ptxas, path, c.target);
    const bool accepts = c.line == 0 && c.message[0] == '\0';
    EXPECT_EQ(!got.any, accepts) << module_text(c) << got.message;
    if (accepts || !got.any) continue;
    EXPECT_EQ(got.line, c.line) << module_text(c);
    if (c.message[0] != '\0') {
      EXPECT_EQ(got.message, c.message) << module_text(c);
    }
  }
}

}  // namespace
}  // namespace ptxfu::isa
