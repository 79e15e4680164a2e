// The decoder and checker against the spec's own words and examples, and
// against themselves through the table (spell -> decode round trip).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "isa/decode.h"
#include "isa/forms.h"
#include "isa/opcodes.h"
#include "isa/statement.h"

namespace ptxfu::isa {
namespace {

struct Outcome {
  bool ok;
  std::string message;
  unsigned column;
};

Outcome check_text(const std::string& text, const std::string& target = "sm_121f", uint16_t ptx = kNewestPtx,
                   const std::vector<std::string>& add = {}, const std::vector<std::string>& remove = {}) {
  auto t = find_target(target);
  if (!t) return {false, "no such target", 0};
  std::string error;
  if (!apply_feature_overrides(t->mask, add, remove, error)) return {false, error, 0};
  const Capabilities caps = capabilities_of(*t, ptx);
  Statement st;
  Diagnostic d;
  Instr in;
  if (!parse_statement(text, 1, st, d)) return {false, d.message, d.column};
  if (!decode(st.mnemonic.text, st.num_operands - 1, st.mnemonic.column, in, d) ||
      !check_target(in, caps, st.mnemonic.column, d))
    return {false, d.message, d.column};
  return {true, "", 0};
}

// Regressions from the real-PTX issue: ptxas 13.0 takes every rounding mode
// on bf16 fma (sm_80, PTX 7.0), and names the missing bf16 type first.
TEST(Decode, Bf16FmaTakesEveryRoundingMode) {
  for (const char* form : {"fma.rn.bf16", "fma.rz.bf16", "fma.rm.bf16x2", "fma.rp.relu.bf16x2", "fma.rz.oob.bf16"}) {
    const std::string text = std::string(form) + " r1, r2, r3, r4";
    EXPECT_TRUE(check_text(text, "sm_90").ok) << form << ": " << check_text(text, "sm_90").message;
    EXPECT_TRUE(check_text(text, "sm_120").ok) << form;
  }
  EXPECT_TRUE(check_text("fma.rm.bf16 r1, r2, r3, r4", "sm_80", 70).ok);
  EXPECT_EQ(check_text("fma.rm.bf16 r1, r2, r3, r4", "sm_75", 70).message,
            "Feature '.bf16' requires .target sm_80 or higher");
  EXPECT_EQ(check_text("add.bf16x2 r1, r2, r3", "sm_75", 80).message,
            "Feature '.bf16x2' requires .target sm_80 or higher");
  EXPECT_EQ(check_text("fma.rz.f16 r1, r2, r3, r4").message, "Illegal rounding modifier for instruction 'fma'");
}

// The rejections the foundation issue names, in ptxas's words.
TEST(Decode, RejectsWhatPtxasRejects) {
  EXPECT_EQ(check_text("add.sat.u32 r1, r2, r3").message, "Modifier '.sat' does not apply to '.u32' type");
  EXPECT_EQ(check_text("mad.lo.wide.s32 r1, r2, r3, r4").message, "Unknown modifier '.wide'");
  EXPECT_EQ(check_text("mad24.lo.sat.s32 r1, r2, r3, r4").message,
            "Illegal modifier '.sat' for instruction 'mad24.lo'");
  EXPECT_EQ(check_text("mad24.hi.sat.u32 r1, r2, r3, r4").message, "Modifier '.sat' does not apply to '.u32' type");
  EXPECT_EQ(check_text("min.relu.u32 r1, r2, r3").message,
            "Illegal modifier '.relu' for instruction 'min' with type '.u32'");
  EXPECT_EQ(check_text("testp.finite.normal.f32 p, f1").message, "Multiple testp operation modifiers specified");
  EXPECT_EQ(check_text("add.ftz.bf16 h1, h2, h3").message, "Illegal modifier '.ftz' for instruction 'add'");
  EXPECT_EQ(check_text("add.rz.f16 h1, h2, h3").message, "Illegal rounding modifier for instruction 'add'");
  EXPECT_EQ(check_text("tanh.f32 f1, f2").message, ".approx modifier required for instruction 'tanh'");
  EXPECT_EQ(check_text("fma.f32 f1, f2, f3, f4").message, "Rounding modifier required for instruction 'fma'");
  EXPECT_EQ(check_text("div.f32 f1, f2, f3").message,
            "Rounding modifier or '.approx' modifier required for instruction 'div'");
  EXPECT_EQ(check_text("min.abs.f32 f1, f2, f3").message, "Modifier '.abs' requires modifier '.xorsign'");
  EXPECT_EQ(check_text("fma.rn.ftz.oob.f16 h1, h2, h3, h4").message,
            "Modifier '.ftz' cannot be combined with modifier '.oob'");
  EXPECT_EQ(check_text("add.rn.rz.f32 f1, f2, f3").message, "Multiple rounding modifiers specified");
  EXPECT_EQ(check_text("add.f32 f1, f2").message, "Arguments mismatch for instruction 'add'");
  EXPECT_EQ(check_text("foo.f32 f1, f2").message, "Not a name of any known instruction: 'foo'");
  EXPECT_EQ(check_text("add.f33 f1, f2, f3").message, "Unknown modifier '.f33'");
  EXPECT_EQ(check_text("abs.u32 r1, r2").message, "Unexpected instruction types specified for 'abs'");
}

TEST(Decode, TargetAndVersionRequirements) {
  EXPECT_EQ(check_text("fma.rn.oob.relu.f16x2 r1, r2, r3, r4", "sm_80").message,
            "Modifier '.oob' requires .target sm_90 or higher");
  EXPECT_EQ(check_text("min.xorsign.abs.f16 h1, h2, h3", "sm_80").message,
            "Modifier '.xorsign' requires .target sm_86 or higher");
  EXPECT_EQ(check_text("min.f32 f1, f2, f3, f4", "sm_90").message,
            "Feature 'min.f32 with 3 input operands' requires .target sm_100 or higher");
  EXPECT_EQ(check_text("fma.rn.f32.f16 f1, h1, h2, f3", "sm_90").message,
            "Feature 'fma.f32.f16' requires .target sm_100 or higher");
  EXPECT_EQ(check_text("add.u16x2 r1, r2, r3", "sm_89").message,
            "Feature 'add.u16x2' requires .target sm_90 or higher");
  EXPECT_EQ(check_text("fma.rn.oob.f16 h1, h2, h3, h4", "sm_90", 80).message,
            "Modifier '.oob' requires PTX ISA .version 8.1 or later");
  EXPECT_TRUE(check_text("fma.rn.oob.f16 h1, h2, h3, h4", "sm_90", 81).ok);
}

TEST(Decode, ConfigFeatureOverrides) {
  // A hypothetical sm_80 with .oob, and an sm_90 without it.
  EXPECT_TRUE(check_text("fma.rn.oob.f16 h1, h2, h3, h4", "sm_80", kNewestPtx, {"oob"}).ok);
  const auto removed = check_text("fma.rn.oob.f16 h1, h2, h3, h4", "sm_90", kNewestPtx, {}, {"oob"});
  EXPECT_FALSE(removed.ok);
  EXPECT_NE(removed.message.find("removed by configuration"), std::string::npos) << removed.message;
  EXPECT_NE(check_text("add.f32 f1, f2, f3", "sm_90", kNewestPtx, {"no_such_feature"}).message.find("unknown feature"),
            std::string::npos);
}

TEST(Decode, ModifierOrderIsFreeExceptTheLeadingMode) {
  EXPECT_TRUE(check_text("add.f32.rn f1, f2, f3").ok);
  EXPECT_TRUE(check_text("add.rz.f32.bf16.sat f1, h1, f2").ok);
  EXPECT_TRUE(check_text("min.abs.xorsign.f16 h1, h2, h3").ok);
  EXPECT_TRUE(check_text("mad.hi.sat.s32 r1, r2, r3, r4").ok);
  EXPECT_FALSE(check_text("mad.sat.hi.s32 r1, r2, r3, r4").ok);
}

TEST(Decode, ColumnsPointAtTheProblem) {
  const auto bad_mod = check_text("add.f33 f1, f2, f3");
  EXPECT_EQ(bad_mod.column, 4u);  // the dot that starts ".f33"
  const auto bad_operand = check_text("add.f32 f1,, f3");
  EXPECT_FALSE(bad_operand.ok);
  EXPECT_EQ(bad_operand.column, 12u);
}

// Every legal form the table enumerates decodes back to the same row and
// modifiers, and every form is legal on the newest target but the .rs
// conversions, which ptxas allows on sm_100a and sm_103a only.
TEST(Decode, EveryLegalFormRoundTrips) {
  size_t forms = 0, on_sm100a = 0;
  const Capabilities caps = capabilities_of(newest_target(), kNewestPtx);
  const Capabilities sm100a = capabilities_of(*find_target("sm_100a"), kNewestPtx);
  for_each_legal_form([&](const Instr& expected) {
    ++forms;
    Instr got;
    Diagnostic d;
    const std::string text = spell(expected);
    ASSERT_TRUE(decode(text, expected.num_src, 1, got, d, elements(expected.row->dest))) << text << ": " << d.message;
    EXPECT_EQ(got.row, expected.row) << text;
    EXPECT_EQ(got.mods, expected.mods) << text;
    if (got.has(Mod::rs)) {
      EXPECT_FALSE(check_target(got, caps, 1, d)) << text;
      EXPECT_TRUE(check_target(got, sm100a, 1, d)) << text << ": " << d.message;
      ++on_sm100a;
    } else {
      EXPECT_TRUE(check_target(got, caps, 1, d)) << text << ": " << d.message;
    }
  });
  EXPECT_GT(forms, 500u);
  EXPECT_EQ(on_sm100a, 18u);
}

// Every arithmetic statement in the spec's Examples blocks is accepted on
// the newest target. The spec lives in ../shared/spec beside the checkout.
TEST(Decode, SpecExamplesAreAccepted) {
  const std::string dir = PTXFU_SPEC_DIR;
  const std::vector<std::string> files = {"000_9493e3e1aef04d8b.txt", "001_ff4dee3e26e18565.txt",
                                          "002_3f1ffb2238c65523.txt", "003_2efc5c8dcce534d6.txt",
                                          "004_92ad55287ca73b3f.txt"};
  size_t checked = 0;
  for (const auto& f : files) {
    std::ifstream in(dir + "/" + f);
    if (!in) GTEST_SKIP() << "spec not found at " << dir;
    bool in_code = false, examples = false;
    std::string line, last_text;
    while (std::getline(in, line)) {
      if (line.rfind("```", 0) == 0) {
        in_code = !in_code;
        examples = in_code && last_text.find("Example") != std::string::npos;
        continue;
      }
      if (!in_code && line.find_first_not_of(" \t") != std::string::npos) last_text = line;
      if (!in_code || !examples) continue;
      line = line.substr(0, line.find("//"));
      const auto first = line.find_first_not_of(" \t");
      if (first == std::string::npos) continue;
      std::string stmt = line.substr(first);
      while (!stmt.empty() && (stmt.back() == ' ' || stmt.back() == ';')) stmt.pop_back();
      // Only instruction examples (an opcode followed by operands), not syntax templates.
      if (stmt.find('{') != std::string::npos || stmt.find(',') == std::string::npos ||
          is_other_instruction(stmt.substr(0, stmt.find_first_of(". "))) || stmt.find(" = ") != std::string::npos ||
          stmt[0] == '.')
        continue;
      const auto r = check_text(stmt);
      EXPECT_TRUE(r.ok) << f << ": " << stmt << ": " << r.message;
      ++checked;
    }
  }
  EXPECT_GT(checked, 60u);
}

TEST(Literals, Classification) {
  EXPECT_EQ(classify_literal("123"), LiteralKind::integer);
  EXPECT_EQ(classify_literal("-7"), LiteralKind::integer);
  EXPECT_EQ(classify_literal("0x1f"), LiteralKind::integer);
  EXPECT_EQ(classify_literal("0b101"), LiteralKind::integer);
  EXPECT_EQ(classify_literal("017"), LiteralKind::integer);
  EXPECT_EQ(classify_literal("0f3f800000"), LiteralKind::floating);
  EXPECT_EQ(classify_literal("0d3ff0000000000000"), LiteralKind::floating);
  EXPECT_EQ(classify_literal("1.5"), LiteralKind::floating);
  EXPECT_EQ(classify_literal("1e-3"), LiteralKind::floating);
  EXPECT_EQ(classify_literal("%r1"), LiteralKind::none);
  EXPECT_EQ(classify_literal("0x"), LiteralKind::none);
  EXPECT_EQ(classify_literal("1e"), LiteralKind::none);
  EXPECT_EQ(classify_literal("0f3f80"), LiteralKind::none);
}

}  // namespace
}  // namespace ptxfu::isa
