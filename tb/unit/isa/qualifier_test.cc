// PTX's "::" qualifiers (state spaces shared::cta, cache hints L2::cache_hint,
// proxies tensormap::generic, ...) are part of the word they stand in, as
// ptxas reads them: issue 24. Each case quotes ptxas 13.0's verdict on it
// (`ptxas -arch=sm_90`, the statement in the module below); where ptxas is
// installed it is asked again.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "isa/check_source.h"
#include "isa/lexer.h"
#include "ptxas.h"
#include "scratch_dir.h"

namespace ptxfu::isa {
namespace {

constexpr const char* kHead =
    ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() {\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<8>;\n";
constexpr unsigned kStatementLine = 8;

std::string module_text(const std::string& statement) { return kHead + statement + "\nret;\n}\n"; }

struct Case {
  const char* statement;
  bool ptxas_accepts;  // ptxas 13.0, sm_90, PTX 9.0
};
const Case kCases[] = {
    {"fence.proxy.tensormap::generic.release.gpu;", true},
    {"ld.global.nc.L1::no_allocate.b32 %r1, [%rd1];", true},
    {"mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;", true},
    {"cp.async.cg.shared.global.L2::128B [%r1], [%rd1], 16;", true},
    {"ld.shared::cta.b32 %r2, [%r1];", true},
    {"ld.shared::cluster.b32 %r2, [%r1];", true},
    {"ld.global.L1::evict_last.L2::cache_hint.b32 %r2, [%rd1], %rd2;", true},
    {"st.global.L1::no_allocate.b32 [%rd1], %r1;", true},
    {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, [%r2];", true},
    // ptxas takes no space around "::", and no qualified space in a declaration
    {"ld.shared :: cta.b32 %r2, [%r1];", false},
    {"ld.shared::.b32 %r2, [%r1];", false},
    {".shared::cta .b32 sv;", false},
};

// The errors `check` reports on the module around `statement`.
std::vector<CheckVerdict> check(const std::string& statement) {
  const CheckOutcome out = check_source(module_text(statement), TargetOptions{}, 1u << 16);
  EXPECT_TRUE(out.module);
  EXPECT_FALSE(out.usage_error) << out.usage_message;
  return out.verdicts;
}

TEST(Qualifiers, ColonsBelongToTheWord) {
  std::vector<LexError> errors;
  const auto lexemes = lex("@%p1 ld.global.L1::evict_last.L2::cache_hint.b32 %r2, [%rd1];", 200, errors);
  ASSERT_TRUE(errors.empty());
  ASSERT_GE(lexemes.size(), 4u);
  EXPECT_EQ(lexemes[2].text, "ld.global.L1::evict_last.L2::cache_hint.b32");
  // A directive keeps its qualifier and still ends at the next dot.
  const auto directive = lex(".shared::cta.b32", 200, errors);
  ASSERT_EQ(directive.size(), 3u);
  EXPECT_EQ(directive[0].text, ".shared::cta");
  EXPECT_EQ(directive[1].text, ".b32");
  // A label's ':' is still punctuation, and so is a lone "::" between spaces.
  const auto label = lex("L1: ld :: cta", 200, errors);
  ASSERT_EQ(label.size(), 7u);
  EXPECT_TRUE(label[1].is(':'));
  EXPECT_TRUE(label[3].is(':') && label[4].is(':'));
}

TEST(Qualifiers, CheckedAsPtxasReadsThem) {
  for (const Case& c : kCases) {
    const auto verdicts = check(c.statement);
    EXPECT_EQ(verdicts.empty(), c.ptxas_accepts)
        << c.statement << ": " << (verdicts.empty() ? "" : verdicts[0].message);
    if (!verdicts.empty()) {
      EXPECT_EQ(verdicts[0].loc.line, kStatementLine) << c.statement;
    }
  }
}

TEST(Qualifiers, TheQuotedVerdictsAreStillPtxass) {
  const std::string ptxas = testing_support::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas installed";
  testing_support::ScratchDir dir;
  for (const Case& c : kCases) {
    const std::string path = dir / "q.ptx";
    std::ofstream(path) << module_text(c.statement);
    const auto diagnostics = testing_support::run_ptxas(ptxas, path, "sm_90");
    EXPECT_EQ(diagnostics.empty(), c.ptxas_accepts) << c.statement;
  }
}

}  // namespace
}  // namespace ptxfu::isa
